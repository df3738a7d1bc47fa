//! Shards: one count split across machines, and the results put back together.
//!
//! Shard `I/K` (1 ≤ I ≤ K) counts the tasks whose id leaves remainder I − 1 when divided by K.
//! Task ids run through the list class by class, so every shard gets a slice of every class and
//! the shards take about equally long. Each shard prints a [`ShardResult`] as one line of JSON;
//! [`merge`] checks that the K results of one n are all there, once each, counted over the same
//! task list, and adds them up; it reports every problem it finds at once (damaged or foreign
//! results, shards given twice, shards missing), and names a checkpoint handed to it as one.
//!
//! ```text
//! {"n":17,"shard":"2/3","tasks":3011,"task_list":"9b8f6c1e0a3d2f47","subtotal":31934312,"unique":3993157,"nodes":123456789,"elapsed":0.82,"check":"0c41b2d7"}
//! ```
//!
//! `check` is the CRC-32 ([`super::checksum`]) of the other fields in a fixed text form
//! ([`ShardResult::checked_text`]): a shard file damaged on its way (or edited by hand) fails
//! it, and `merge` names the file. Each shard's numbers must also be plausible (unique ≤ subtotal
//! ≤ 8 · unique, since every class has one to eight members), and for n ≤ 27 the merged total
//! must equal the published one. A shard file is at most [`MAX_SHARD_FILE`] bytes, may start
//! with a UTF-8 byte-order mark, and holds one JSON object.

use serde::{Deserialize, Serialize};

use nqueens_support::{excerpt, strip_bom};

use super::checkpoint::{looks_like_checkpoint, peek_header};
use super::checksum;
use super::error::{CounterError, check_published};
use crate::engines::counter::MAX_N;
use crate::engines::counter::tasks::{Fingerprint, TaskList};

/// The most bytes a shard file can need (its JSON line is about 250 bytes).
pub const MAX_SHARD_FILE: usize = 4096;

/// The most bytes a stream of shard results (`cat shard-*.json | nqueens merge -`) can need:
/// 16 MiB, some 60,000 results of one line each.
pub const MAX_SHARD_STREAM: usize = MAX_SHARD_FILE << 12;

/// The shard results a text holds, one per line as the shards print them, each with its name
/// for messages: the whole text under `name` when it has at most one line that is not blank,
/// else each such line as "NAME line L" (1-based), so a duplicate or a damaged result is named
/// by its line.
///
/// ```
/// use nqueens_solver::runs::shard::split_results;
/// assert_eq!(split_results("f", "{}\n"), [("f".to_string(), "{}\n".to_string())]);
/// let two = split_results("standard input", "{\"a\":1}\n\n{\"b\":2}\n");
/// assert_eq!(two[1], ("standard input line 3".to_string(), "{\"b\":2}".to_string()));
/// ```
pub fn split_results(name: &str, text: &str) -> Vec<(String, String)> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .collect();
    if lines.len() <= 1 {
        return vec![(name.to_string(), text.to_string())];
    }
    lines
        .into_iter()
        .map(|(i, line)| (format!("{name} line {}", i + 1), line.to_string()))
        .collect()
}

/// The most shards an error message lists by name.
const LISTED: usize = 8;

pub use super::part::{Shard, ShardSyntax};

/// What one shard's run reports (one line of JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardResult {
    /// Board size.
    pub n: u32,
    /// Which shard, `I/K`.
    pub shard: String,
    /// Tasks this shard counted.
    pub tasks: u64,
    /// The task list's fingerprint (hex).
    pub task_list: String,
    /// Solutions (weighted by class size) in this shard's tasks.
    pub subtotal: u128,
    /// Canonical solutions in this shard's tasks.
    pub unique: u128,
    /// Queens placed, over all of the shard's tasks.
    pub nodes: u128,
    /// Seconds this process ran (not counting earlier runs resumed from a checkpoint).
    pub elapsed: f64,
    /// The CRC-32 of [`checked_text`](Self::checked_text), eight hexadecimal digits (empty in
    /// files of older versions, which `merge` refuses).
    #[serde(default)]
    pub check: String,
}

impl ShardResult {
    /// The text the check value covers: every other field, in order, separated by spaces
    /// (`elapsed` in Rust's shortest round-trip form, which survives the JSON line exactly
    /// because serde_json is built with `float_roundtrip`).
    pub fn checked_text(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {:?}",
            self.n,
            self.shard,
            self.tasks,
            self.task_list,
            self.subtotal,
            self.unique,
            self.nodes,
            self.elapsed
        )
    }

    /// This result with its check value set to match its fields.
    pub fn sealed(mut self) -> Self {
        self.check = checksum::check(&self.checked_text());
        self
    }

    /// Whether the check value matches the fields.
    pub fn is_intact(&self) -> bool {
        checksum::verify(&self.checked_text(), &self.check)
    }

    /// One line of JSON, without a newline (with the check value as it is: see
    /// [`sealed`](Self::sealed)).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain numbers and strings serialize")
    }

    /// Reads a shard file's text (`name` is for messages): one JSON object, a byte-order mark
    /// allowed, no more than [`MAX_SHARD_FILE`] bytes, with an intact check value.
    pub fn parse(name: &str, text: &str) -> Result<ShardResult, CounterError> {
        let bad = |reason: String| CounterError::Merge(format!("{name}: {reason}"));
        if looks_like_checkpoint(text.as_bytes()) {
            let what = match peek_header(text.as_bytes()) {
                Some(header) => format!(" of n = {}, shard {}", header.n, header.shard),
                None => String::new(),
            };
            return Err(bad(format!(
                "a counter checkpoint{what}, not a shard result (a shard's count prints its result when it finishes)"
            )));
        }
        if text.len() > MAX_SHARD_FILE {
            return Err(bad(format!(
                "not a shard result (longer than {MAX_SHARD_FILE} bytes)"
            )));
        }
        let json = strip_bom(text).trim();
        let result: ShardResult = serde_json::from_str(json).map_err(|e| {
            bad(format!(
                "not a shard result: {} (in '{}')",
                excerpt(&e.to_string()),
                excerpt(json)
            ))
        })?;
        if result.check.is_empty() {
            return Err(bad(
                "has no check value (written by an older nqueens?): count that shard again".into(),
            ));
        }
        if !result.is_intact() {
            return Err(bad(format!(
                "fails its check value ({}): the file is damaged or was edited; count that shard again",
                excerpt(&result.check)
            )));
        }
        Ok(result)
    }
}

/// `items` joined by ", ", at most [`LISTED`] of them, then how many more.
fn capped_list(items: impl ExactSizeIterator<Item = String>) -> String {
    let len = items.len();
    let mut shown: Vec<String> = items.take(LISTED).collect();
    if len > LISTED {
        shown.push(format!("and {} more", len - LISTED));
    }
    shown.join(", ")
}

/// The sum of all K shards of one count.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Board size.
    pub n: u32,
    /// K.
    pub shards: u32,
    /// Tasks in the whole list.
    pub tasks: u64,
    /// All solutions (A000170).
    pub total: u128,
    /// Solutions up to symmetry (A002562).
    pub unique: u128,
    /// Queens placed in all shards.
    pub nodes: u128,
    /// Seconds the shards ran, added up.
    pub elapsed: f64,
}

/// Checks and adds up shard results; `sources` pairs each result's text (JSON) with a name for
/// messages (its file name). Every problem found is reported, not only the first: files that
/// are not intact results, results of another count than the first intact one's, shards that
/// appear twice and shards that are missing, all in one error (one problem as it is, more as
/// "K problems: A; B; ...").
pub fn merge(sources: &[(String, String)]) -> Result<Merged, CounterError> {
    let mut problems: Vec<String> = Vec::new();
    let mut parsed = Vec::with_capacity(sources.len());
    for (name, text) in sources {
        match parse_one(name, text) {
            Ok((shard, result)) => parsed.push((name.as_str(), shard, result)),
            Err(problem) => problems.push(problem),
        }
    }
    let Some(&(first_name, first_shard, ref first)) = parsed.first() else {
        if problems.is_empty() {
            problems.push("no shard results to merge".into());
        }
        return Err(CounterError::Merge(joined(problems)));
    };
    let n = first.n;
    if !(1..=MAX_N).contains(&n) {
        problems.push(format!("{first_name}: n = {n} is outside 1..={MAX_N}"));
        return Err(CounterError::Merge(joined(problems)));
    }
    let count = first_shard.count();
    let tasks = TaskList::new(n);
    if count > 1 && count as usize > tasks.len() {
        return Err(CounterError::TooManyShards {
            shard: first_shard,
            n,
            tasks: tasks.len(),
        });
    }
    let fingerprint = tasks.fingerprint();
    let mut owner: Vec<Option<&str>> = vec![None; count as usize];
    let (mut total, mut unique, mut nodes, mut elapsed) = (0u128, 0u128, 0u128, 0.0);
    for &(name, shard, ref result) in &parsed {
        let foreign = if result.n != n {
            Some(format!(
                "{name} is for n = {}, but {first_name} is for n = {n}",
                result.n
            ))
        } else if shard.count() != count {
            Some(format!(
                "{name} is shard {shard}, but {first_name} is shard {first_shard}: all must split the count {count} ways"
            ))
        } else if result.task_list.parse::<Fingerprint>().ok() != Some(fingerprint) {
            Some(format!(
                "{name} was counted over task list {}, not {fingerprint} (another version of nqueens?)",
                excerpt(&result.task_list)
            ))
        } else if result.tasks != shard.len_of(tasks.len()) as u64 {
            Some(format!(
                "{name} reports {} tasks; shard {shard} has {}",
                result.tasks,
                shard.len_of(tasks.len())
            ))
        } else {
            None
        };
        if let Some(problem) = foreign {
            problems.push(problem);
            continue;
        }
        if let Some(other) = owner[shard.index() as usize - 1].replace(name) {
            problems.push(format!("shard {shard} appears twice: {other} and {name}"));
            continue;
        }
        let sums = (|| {
            Some((
                total.checked_add(result.subtotal)?,
                unique.checked_add(result.unique)?,
                nodes.checked_add(result.nodes)?,
            ))
        })();
        match sums {
            Some(sums) => (total, unique, nodes) = sums,
            None => problems.push("the sum overflows 128 bits".into()),
        }
        elapsed += result.elapsed;
    }
    let missing: Vec<String> = (1..=count)
        .filter(|&i| owner[i as usize - 1].is_none())
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        let word = if missing.len() == 1 {
            "shard"
        } else {
            "shards"
        };
        problems.push(format!(
            "missing {word} {}",
            capped_list(missing.into_iter())
        ));
    }
    if !problems.is_empty() {
        return Err(CounterError::Merge(joined(problems)));
    }
    if unique > total || total > unique.saturating_mul(8) {
        return Err(CounterError::Merge(format!(
            "the merged total {total} is not between 1 and 8 times the merged unique {unique}: a shard file is damaged or was edited"
        )));
    }
    check_published(
        "the merged count",
        n,
        total,
        Some(unique),
        "a damaged or edited shard file, or a hardware fault on a machine that counted a shard, is the likely cause: count the shards again",
    )?;
    Ok(Merged {
        n,
        shards: count,
        tasks: tasks.len() as u64,
        total,
        unique,
        nodes,
        elapsed,
    })
}

/// One source, parsed and checked on its own: its shard and result, or what is wrong with it.
fn parse_one(name: &str, text: &str) -> Result<(Shard, ShardResult), String> {
    let result = ShardResult::parse(name, text).map_err(|e| e.to_string())?;
    let shard: Shard = result
        .shard
        .parse()
        .map_err(|e: ShardSyntax| format!("{name}: {}", excerpt(&e.to_string())))?;
    if result.unique > result.subtotal || result.subtotal > result.unique.saturating_mul(8) {
        return Err(format!(
            "{name}: subtotal {} is not between 1 and 8 times unique {}: the file is damaged or was edited",
            result.subtotal, result.unique
        ));
    }
    Ok((shard, result))
}

/// Problems as one message: one as it is, more counted and joined by "; ".
fn joined(problems: Vec<String>) -> String {
    match problems.len() {
        1 => problems.into_iter().next().unwrap_or_default(),
        k => format!("{k} problems: {}", problems.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn check_values_survive_the_json_line_for_any_elapsed_time() {
        let mut state = 0x5eed_u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let elapsed = (state >> 11) as f64 / (1u64 << 53) as f64 * 1000.0;
            let result = super::ShardResult {
                n: 12,
                shard: "1/3".into(),
                tasks: 5,
                task_list: "0123456789abcdef".into(),
                subtotal: 100,
                unique: 13,
                nodes: 1000,
                elapsed,
                check: String::new(),
            }
            .sealed();
            let back: super::ShardResult = serde_json::from_str(&result.to_json()).unwrap();
            assert!(back.is_intact(), "elapsed = {elapsed:?}");
        }
    }

    use super::*;
    use crate::engines::counter::tasks::TaskId;

    #[test]
    fn shards_parse_and_partition_the_ids() {
        assert_eq!("2/3".parse(), Ok(Shard::new(2, 3).unwrap()));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "+1/2", "1 /2", "", "1/2/3"] {
            assert_eq!(bad.parse::<Shard>(), Err(ShardSyntax(bad.into())), "{bad}");
        }
        for count in 1..=7 {
            for len in 0..20usize {
                let mut owners = vec![0; len];
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let mine = (0..len as u32)
                        .filter(|&i| shard.contains(TaskId(i)))
                        .count();
                    assert_eq!(mine, shard.len_of(len));
                    for (i, owner) in owners.iter_mut().enumerate() {
                        *owner += usize::from(shard.contains(TaskId(i as u32)));
                    }
                }
                assert!(owners.iter().all(|&o| o == 1));
            }
        }
    }

    fn result(n: u32, shard: &str, tasks: u64, subtotal: u128) -> (String, String) {
        let list = TaskList::new(n);
        let text = ShardResult {
            n,
            shard: shard.into(),
            tasks,
            task_list: list.fingerprint().to_string(),
            subtotal,
            unique: subtotal.div_ceil(8),
            nodes: 5,
            elapsed: 0.5,
            check: String::new(),
        }
        .sealed()
        .to_json();
        (format!("{}.json", shard.replace('/', "-of-")), text)
    }

    #[test]
    fn merging_checks_every_shard() {
        // n = 8 has 78 tasks: shards of 39 each.
        let a = result(8, "1/2", 39, 48);
        let b = result(8, "2/2", 39, 44);
        let merged = merge(&[a.clone(), b.clone()]).unwrap();
        assert_eq!((merged.total, merged.unique, merged.tasks), (92, 12, 78));
        let fail = |sources: &[(String, String)]| merge(sources).unwrap_err().to_string();
        assert_eq!(fail(std::slice::from_ref(&a)), "missing shard 2/2");
        assert_eq!(
            fail(&[a.clone(), a.clone(), b.clone()]),
            "shard 1/2 appears twice: 1-of-2.json and 1-of-2.json"
        );
        assert!(
            fail(&[a.clone(), result(9, "2/2", 50, 44)])
                .contains("is for n = 9, but 1-of-2.json is for n = 8")
        );
        assert!(
            fail(&[a.clone(), result(8, "2/3", 34, 44)])
                .contains("all must split the count 2 ways")
        );
        assert!(
            fail(&[a.clone(), result(8, "2/2", 38, 44)])
                .contains("reports 38 tasks; shard 2/2 has 39")
        );
        assert!(fail(&[("x".into(), "{}".into())]).starts_with("x: not a shard result"));
        assert_eq!(fail(&[]), "no shard results to merge");
        let mut other = b.clone();
        other.1 = other.1.replace(
            &TaskList::new(8).fingerprint().to_string(),
            "0000000000000001",
        );
        // Editing the fingerprint breaks the check value first.
        assert!(fail(&[a.clone(), other]).contains("2-of-2.json: fails its check value"));
        // Resealed (a forgery, not an accident), the task-list check still catches it.
        let mut forged: ShardResult = serde_json::from_str(&b.1).unwrap();
        forged.task_list = "0000000000000001".into();
        let forged = (b.0.clone(), forged.sealed().to_json());
        assert!(fail(&[a, forged]).contains("was counted over task list 0000000000000001"));
    }

    #[test]
    fn damaged_and_implausible_shards_are_refused() {
        let a = result(8, "1/2", 39, 48);
        let b = result(8, "2/2", 39, 44);
        let fail = |sources: &[(String, String)]| merge(sources).unwrap_err().to_string();
        // A byte-order mark and surrounding blank lines are fine.
        let bom = (a.0.clone(), format!("\u{feff}{}\n\n", a.1));
        assert_eq!(merge(&[bom, b.clone()]).unwrap().total, 92);
        let edited = (
            b.0.clone(),
            b.1.replace(
                "\"subtotal\":44",
                "\"subtotal\":1000000000000000000000000000000",
            ),
        );
        assert!(fail(&[a.clone(), edited]).contains("2-of-2.json: fails its check value"));
        let old = (
            b.0.clone(),
            b.1.replace(
                &format!(
                    ",\"check\":\"{}\"",
                    serde_json::from_str::<ShardResult>(&b.1).unwrap().check
                ),
                "",
            ),
        );
        assert!(fail(&[a.clone(), old]).contains("has no check value"));
        // Resealed, an implausible subtotal or a wrong sum is still refused.
        let reseal = |subtotal: u128, unique: u128| {
            let mut r: ShardResult = serde_json::from_str(&b.1).unwrap();
            (r.subtotal, r.unique) = (subtotal, unique);
            (b.0.clone(), r.sealed().to_json())
        };
        assert!(fail(&[a.clone(), reseal(10u128.pow(30), 5)]).contains(
            "subtotal 1000000000000000000000000000000 is not between 1 and 8 times unique 5"
        ));
        let wrong = fail(&[a.clone(), reseal(48, 6)]);
        assert!(
            wrong.starts_with("the merged count of n = 8 came out as 96 (12 up to symmetry), but the published count is 92 (12 up to symmetry)"),
            "{wrong}"
        );
        assert!(wrong.contains("shard file"), "{wrong}");
        let long = ("big.json".to_string(), " ".repeat(MAX_SHARD_FILE + 1));
        assert!(fail(&[long]).contains("longer than 4096 bytes"));
    }

    #[test]
    fn more_shards_than_tasks_are_refused_and_missing_lists_are_capped() {
        let fail = |sources: &[(String, String)]| merge(sources).unwrap_err().to_string();
        let too_many = result(8, "1/4294967295", 0, 0);
        assert_eq!(
            fail(&[too_many]),
            "shard 1/4294967295 is not a part of n = 8: its count has 78 tasks, so it splits at most 78 ways"
        );
        let first = result(8, "1/78", 1, 0);
        assert_eq!(
            fail(&[first]),
            "missing shards 2/78, 3/78, 4/78, 5/78, 6/78, 7/78, 8/78, 9/78, and 69 more"
        );
    }

    #[test]
    fn counts_beyond_64_bits_survive_the_round_trip() {
        let (_, text) = result(8, "1/1", 78, u128::from(u64::MAX) * 3);
        let back: ShardResult = serde_json::from_str(&text).unwrap();
        assert_eq!(back.subtotal, u128::from(u64::MAX) * 3);
        assert!(text.contains("\"subtotal\":55340232221128654845"));
    }
}
