//! Enables the AVX-512 batch decoder (`cfg(bijou_avx512)`) on compilers
//! that have AVX-512 intrinsics (Rust 1.89 and later); older compilers
//! down to the crate's `rust-version` build without it.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC");
    println!("cargo::rustc-check-cfg=cfg(bijou_avx512)");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(output) = std::process::Command::new(rustc).arg("--version").output() else {
        return;
    };
    // "rustc 1.95.0 (…)": the minor version.
    let version = String::from_utf8_lossy(&output.stdout);
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok());
    if minor.is_some_and(|minor| minor >= 89) {
        println!("cargo::rustc-cfg=bijou_avx512");
    }
}
