//! The reader of Knuth's format never panics: random bytes and random near-miss texts give a
//! problem or a one-line error.

use exact_cover::{Error, Problem, Solver};
use proptest::prelude::*;

fn check(text: &str) -> Result<(), TestCaseError> {
    match Problem::parse(text) {
        Ok(problem) => {
            // Whatever was read can be written, read back and solved.
            let again = Problem::parse(&problem.to_knuth());
            if problem.items().is_empty() {
                prop_assert!(again.is_err());
            } else {
                prop_assert_eq!(again.unwrap(), problem.clone());
            }
            if problem.option_count() <= 12 {
                let mut solver = Solver::new(&problem);
                let _ = solver.list(Some(3));
                prop_assert!(solver.count() <= 1 << 12);
            }
        }
        Err(err) => {
            let message = err.to_string();
            prop_assert!(!message.contains('\n'), "multi-line error: {}", message);
            if let Error::Parse { line, column, .. } = err {
                prop_assert!(line >= 1 && column >= 1);
                prop_assert!(line <= text.lines().count());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn near_misses_never_panic(text in "([abc|: \t]{0,8}\n){0,8}") {
        check(&text)?;
    }
}
