//! The values a command line of the `nqueens` binary names: a board size, a method, a time
//! limit in seconds. The lab's flags and the commands people type parse them with these same
//! functions, so both accept the same text and refuse it with the same words.

use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use nqueens_solver::methods::Method;

/// Parses the board size with a message that says what is expected.
pub fn parse_n(text: &str) -> Result<u32, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < 1 => Err("the board size must be at least 1".into()),
        Ok(n) => {
            u32::try_from(n).map_err(|_| format!("the board size must be at most {}", u32::MAX))
        }
        Err(_) => Err("expected a whole number, like 8".into()),
    }
}

/// A value parser listing the methods with their descriptions (for `--help` and errors).
pub fn method_parser() -> impl TypedValueParser<Value = Method> {
    PossibleValuesParser::new(
        Method::ALL
            .iter()
            .map(|m| PossibleValue::new(m.name()).help(m.about())),
    )
    .map(|name| name.parse::<Method>().expect("a listed method"))
}

/// Parses `--time-limit`: a positive number of seconds, fractions allowed.
pub fn time_limit_parser(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds, like 1.5".to_string())?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err("the time limit must be more than 0 seconds".into());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| "that time limit is too long".into())
}
