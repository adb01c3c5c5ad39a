//! Refuses an unknown `--cfg sha1_fast_force` value. The `unexpected_cfgs`
//! lint checks the cfgs the source tests, not the values a build passes in,
//! so without this a typo (`"scaler"`) would silently leave the detected
//! backend in charge of a run meant to test another.

const VALUES: [&str; 5] = ["scalar", "shani", "simd", "armsha", "none"];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    // Cargo sets this from the target's cfgs, RUSTFLAGS' `--cfg` included;
    // several values arrive comma-separated.
    let Ok(values) = std::env::var("CARGO_CFG_SHA1_FAST_FORCE") else {
        return;
    };
    let values: Vec<&str> = values.split(',').collect();
    if let [value] = values[..]
        && VALUES.contains(&value)
    {
        return;
    }
    eprintln!(
        "error: --cfg sha1_fast_force={values:?} is not one of {VALUES:?}; \
         pass exactly one, or leave the cfg out to detect the backend at run time"
    );
    std::process::exit(1);
}
