//! The checked-in vector files (`vectors/bijou/`), run through every width.

use testkit::vectors::{BIJOU_WIDTHS, BijouExpect, Format, files, load_bijou};

fn run_file(relative: &str) -> usize {
    let cases = load_bijou(relative).unwrap_or_else(|e| panic!("{e}"));
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            testkit::bijou_cases::run(case)
                .err()
                .map(|e| format!("{relative}:{}: {e}", case.line))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    cases.len()
}

#[test]
fn spec_vectors() {
    let cases = load_bijou("bijou/spec.txt").unwrap();
    // Guard against a truncated file silently testing less: the spec has
    // 18 + 13 + 17 value vectors and 7 error vectors.
    assert_eq!(cases.len(), 55);
    assert_eq!(run_file("bijou/spec.txt"), 55);
}

#[test]
fn signed_vectors() {
    let cases = load_bijou("bijou/signed.txt").unwrap();
    for width in ["bijou32s", "bijou64s", "bijou128s"] {
        assert!(cases.iter().any(|c| c.width == width), "no {width} vectors");
    }
    run_file("bijou/signed.txt");
}

#[test]
fn boundary_vectors() {
    let cases = load_bijou("bijou/boundaries.txt").unwrap();
    for width in BIJOU_WIDTHS {
        let of_width = |pred: fn(&BijouExpect) -> bool| {
            cases
                .iter()
                .filter(|c| c.width == width && pred(&c.expect))
                .count()
        };
        // Each width has its top tier's smallest overflowing encoding, and
        // each unsigned one every multi-byte tag cut short.
        assert!(
            of_width(|e| *e == BijouExpect::Overflow) >= 1,
            "{width}: no overflow edge"
        );
        assert!(
            of_width(|e| matches!(e, BijouExpect::Value(_))) >= 4,
            "{width}: no tier edges"
        );
        if !width.ends_with('s') {
            let tiers = match width {
                "bijou32" => 4,
                "bijou64" => 8,
                _ => 16,
            };
            assert_eq!(of_width(|e| *e == BijouExpect::Truncated), tiers, "{width}");
        }
    }
    run_file("bijou/boundaries.txt");
}

/// Every width the vector format names has vectors in some file.
#[test]
fn every_width_has_vectors() {
    let mut cases = Vec::new();
    for file in files(Format::Bijou) {
        cases.extend(load_bijou(file.path).unwrap());
    }
    for width in BIJOU_WIDTHS {
        assert!(cases.iter().any(|c| c.width == width), "no {width} vectors");
    }
}

#[test]
fn a_wrong_vector_is_reported() {
    let case = testkit::vectors::parse_bijou("inline", "bijou64 301 F834\n")
        .unwrap()
        .remove(0);
    let message = testkit::bijou_cases::run(&case).unwrap_err();
    assert!(
        message.contains("F834") && message.contains("301"),
        "{message}"
    );
}
