//! The bijou-core integration suite, one binary (one link instead of
//! four): the small API, the vector files, the format's properties, and
//! the exhaustive sweeps (ignored unless asked for).

mod api;
mod exhaustive;
mod periodic;
mod properties;
mod values;
mod vectors;
