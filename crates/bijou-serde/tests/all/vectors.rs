//! The checked-in vectors (`vectors/serde/`), as `cargo xtask conformance`
//! runs them.

use testkit::serde_cases::{SerdeExpect, run};
use testkit::vectors::{Format, files, load_serde};

#[test]
fn every_serde_vector_file_passes() {
    let mut count = 0;
    for file in files(Format::Serde) {
        let cases = load_serde(file.path).unwrap_or_else(|e| panic!("{e}"));
        let failures: Vec<String> = cases
            .iter()
            .filter_map(|case| {
                run(case)
                    .err()
                    .map(|e| format!("{}:{}: {e}", file.path, case.line))
            })
            .collect();
        assert!(
            failures.is_empty(),
            "{} failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
        // Both directions are exercised: values and refusals.
        assert!(
            cases
                .iter()
                .any(|c| matches!(c.expect, SerdeExpect::Value(_)))
        );
        assert!(
            cases
                .iter()
                .any(|c| matches!(c.expect, SerdeExpect::Error { .. }))
        );
        count += cases.len();
    }
    assert!(count > 0, "no serde vector files listed");
}

/// A wrong expectation fails, naming it: the runner cannot pass by
/// checking nothing.
#[test]
fn a_wrong_vector_fails() {
    for text in [
        "u16 FC30 301",
        "u16 FC30 error:Truncated@0",
        "bool 02 error:InvalidBool@1",
        "bool 02 error:InvalidOption@0",
        "f32 0000C07F 1.0",
    ] {
        let cases = testkit::serde_cases::parse("t", text).unwrap();
        assert!(run(&cases[0]).is_err(), "{text} passed");
    }
    assert!(testkit::serde_cases::parse("t", "nosuchtype 00 0").is_err());
    assert!(testkit::serde_cases::parse("t", "u8 0 0").is_err());
    assert!(testkit::serde_cases::parse("t", "u8 00 error:Truncated").is_err());
}
