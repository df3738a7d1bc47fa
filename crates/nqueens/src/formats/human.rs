//! Numbers as people read them in one line of progress or a forecast: a rate with its
//! thousands prefix (`454.5 M`), a duration in the two largest units that matter (`1 h 2 min`,
//! `3 days 2 h`, `266180 years`), and a share of the work with as many digits as it takes to see
//! it move (`33%`, `1.2%`, `0.05%`, `<0.01%`). Written once for every front end that draws a
//! long count's progress (the CLI, `nqueens-mpi`); each costs one `format!`.

/// A rate per second with its prefix: `454.5 M`, `2.7 k`, `12`.
pub fn rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e9 => format!("{:.1} G", r / 1e9),
        r if r >= 1e6 => format!("{:.1} M", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

/// A duration in its two largest units: `42 s`, `3 min 5 s`, `1 h 2 min`, `3 days 2 h`, and
/// whole years beyond two.
pub fn duration(seconds: f64) -> String {
    const DAY: u64 = 86_400;
    const YEAR: f64 = 365.25 * 86_400.0;
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        3600..DAY => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ if seconds < 2.0 * YEAR => format!("{} days {} h", s / DAY, s % DAY / 3600),
        _ => format!("{:.0} years", seconds / YEAR),
    }
}

/// A share of the work (0 to 1, clamped) in per cent, with as many digits as it takes to see
/// it move.
pub fn share(share: f64) -> String {
    let percent = 100.0 * share.clamp(0.0, 1.0);
    match percent {
        p if p >= 10.0 => format!("{p:.0}%"),
        p if p >= 1.0 => format!("{p:.1}%"),
        p if p >= 0.01 => format!("{p:.2}%"),
        _ => "<0.01%".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_unit_and_its_boundaries() {
        assert_eq!(rate(454.5e6), "454.5 M");
        assert_eq!(rate(2_700.0), "2.7 k");
        assert_eq!(rate(3.2e9), "3.2 G");
        assert_eq!(rate(12.4), "12");
        assert_eq!(duration(59.4), "59 s");
        assert_eq!(duration(185.0), "3 min 5 s");
        assert_eq!(duration(3725.0), "1 h 2 min");
        assert_eq!(duration(3.0 * 86_400.0 + 7200.0), "3 days 2 h");
        assert_eq!(duration(266_180.0 * 365.25 * 86_400.0), "266180 years");
        assert_eq!(share(0.33), "33%");
        assert_eq!(share(0.0123), "1.2%");
        assert_eq!(share(0.000_5), "0.05%");
        assert_eq!(share(0.000_01), "<0.01%");
        assert_eq!(share(1.7), "100%");
    }
}
