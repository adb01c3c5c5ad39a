//! The aarch64 detection token.

detection_token! {
    /// Proof that the CPU has the SHA-1 instructions (Rust's `sha2`
    /// feature, which stands for both SHA-1 and SHA-256).
    ArmSha: "sha2"
}
