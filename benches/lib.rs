//! Shared workload generators for the criterion benches in `benches/benches/`.
