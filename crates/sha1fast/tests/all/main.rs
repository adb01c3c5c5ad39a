//! sha1fast's integration tests, one binary: the command beside the real
//! tools (coreutils sha1sum, sha1cdsum, git) on generated trees. A tool
//! that is missing fails its tests; `.ci/run` installs them all.

mod coreutils;
mod detection;
mod git;
mod support;
