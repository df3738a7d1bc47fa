//! The checkpoint's tests: round trips, compaction, damage, locks.

use super::header::parse_header;
use super::*;
use crate::engines::counter::tasks::TaskList;
use crate::runs::checksum;
use crate::runs::part::Shard;

fn header() -> Header {
    Header::new(&TaskList::new(8), Shard::ALL)
}

fn result(total: u64) -> TaskResult {
    TaskResult {
        total,
        unique: total / 8,
        nodes: 100 + total,
    }
}

fn record(id: u32, total: u64) -> String {
    record_line(header().fingerprint, TaskId(id), &result(total))
}

fn me() -> String {
    header().line(std::process::id())
}

/// A position of task `id` with `pieces` pieces done, cut at row 6.
fn position(id: u32, pieces: u64) -> String {
    position_line(header().fingerprint, TaskId(id), &partial(pieces))
}

fn partial(pieces: u64) -> Partial {
    Partial {
        cut: 6,
        pieces,
        found: result(8 * pieces),
    }
}

#[test]
fn positions_round_trip_and_the_last_one_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
    assert!(checkpoint.positions().is_empty());
    checkpoint.record_position(TaskId(5), &partial(2)).unwrap();
    checkpoint.record_position(TaskId(3), &partial(1)).unwrap();
    checkpoint.record_position(TaskId(5), &partial(7)).unwrap();
    checkpoint.record_position(TaskId(4), &partial(1)).unwrap();
    checkpoint.record(TaskId(4), &result(16)).unwrap();
    drop(checkpoint);
    let (checkpoint, results) = Checkpoint::open(&path, &header()).unwrap();
    assert_eq!(results, vec![(TaskId(4), result(16))]);
    // Task 4 has its result; task 5's last position is the one to resume from.
    assert_eq!(
        checkpoint.positions(),
        [(TaskId(3), partial(1)), (TaskId(5), partial(7))]
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let fingerprint = header().fingerprint;
    let check = checksum::check(&format!("{fingerprint} 5 6:7 56 7 156"));
    assert!(
        text.contains(&format!("\n5 6:7 56 7 156 {check}\n")),
        "{text}"
    );
    let longest = Partial {
        cut: 32,
        pieces: u64::MAX,
        found: TaskResult {
            total: u64::MAX,
            unique: u64::MAX,
            nodes: u64::MAX,
        },
    };
    let line = position_line(fingerprint, TaskId(u32::MAX), &longest);
    assert_eq!(line.len(), MAX_POSITION + 1);
}

/// A run that writes more position lines than the reader allows (a long run of many
/// threads writes some every ten minutes) compacts its file first: what it holds is
/// kept, the superseded lines go, and the file reads back within the bound.
#[test]
fn positions_beyond_the_bound_compact_the_file_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
    checkpoint.record(TaskId(4), &result(16)).unwrap();
    let budget = header().max_positions() - SPARE_POSITIONS / 2;
    let mut most = 0;
    for pieces in 1..=budget + 100 {
        let id = TaskId(3 + 2 * (pieces % 2) as u32);
        checkpoint.record_position(id, &partial(pieces)).unwrap();
        most = most.max(checkpoint.position_lines());
    }
    assert_eq!(most, budget, "compacted when the lines reached the budget");
    assert!(checkpoint.position_lines() < 200);
    checkpoint.record(TaskId(7), &result(8)).unwrap();
    drop(checkpoint);
    let (checkpoint, results) = Checkpoint::open(&path, &header()).unwrap();
    assert_eq!(
        results,
        vec![(TaskId(4), result(16)), (TaskId(7), result(8))]
    );
    let last = budget + 100;
    assert_eq!(
        checkpoint.positions(),
        [
            (TaskId(3), partial(last - last % 2)),
            (TaskId(5), partial(last - 1 + last % 2))
        ]
    );
    drop(checkpoint);
    // Nothing is left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

/// The header of a board with fixed queens or blocked squares names it, reads back, and
/// a record of that board counted without symmetry must have unique equal to total.
#[test]
fn a_masked_board_is_named_in_the_header() {
    let masked = Header {
        board: Some(BoardMark {
            squares: Fingerprint(0xfeed_beef),
            symmetries: 1,
        }),
        ..header()
    };
    let line = masked.line(12);
    assert!(
        line.contains(" shard=1/1 board=00000000feedbeef symmetries=1 check="),
        "{line}"
    );
    assert_eq!(
        parse_header(line.trim_end().as_bytes())
            .ok()
            .map(|(h, _)| h),
        Some(masked)
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (mut checkpoint, _) = Checkpoint::open(&path, &masked).unwrap();
    let plain = TaskResult {
        total: 5,
        unique: 5,
        nodes: 80,
    };
    checkpoint.record(TaskId(2), &plain).unwrap();
    drop(checkpoint);
    assert_eq!(Checkpoint::open(&path, &masked).unwrap().1.len(), 1);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text += &record_line(masked.fingerprint, TaskId(3), &result(16));
    std::fs::write(&path, &text).unwrap();
    let error = Checkpoint::open(&path, &masked).unwrap_err().to_string();
    assert!(
        error.contains("line 3: task 3: total 16 is not equal to unique 2"),
        "{error}"
    );
    // Neither the bare board nor another board takes it.
    for (other, says) in [
        (
            header(),
            "was written for a board with fixed queens or blocked squares (board 00000000feedbeef), not the bare board",
        ),
        (
            Header {
                board: Some(BoardMark {
                    squares: Fingerprint(1),
                    symmetries: 1,
                }),
                ..header()
            },
            "was written for another board",
        ),
    ] {
        let error = Checkpoint::open(&path, &other).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
    }
}

#[test]
fn a_version_2_file_is_read_and_its_header_upgraded_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    // A version 2 header, as the nqueens before positions wrote it.
    let body = header().body().replace(" v3 ", " v2 ");
    let old = format!(
        "{body} check={} pid={:010}\n{}{}",
        checksum::check(&body),
        77,
        record(1, 8),
        record(6, 16)
    );
    std::fs::write(&path, &old).unwrap();
    let (checkpoint, results) = Checkpoint::open(&path, &header()).unwrap();
    assert_eq!(
        results,
        vec![(TaskId(1), result(8)), (TaskId(6), result(16))]
    );
    drop(checkpoint);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.len(), old.len());
    assert!(text.starts_with(&me()), "{text}");
    assert!(text.ends_with(&format!("{}{}", record(1, 8), record(6, 16))));
    // And it reads as version 3 from then on.
    assert_eq!(Checkpoint::open(&path, &header()).unwrap().1.len(), 2);
}

#[test]
fn records_round_trip_with_check_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (mut checkpoint, old) = Checkpoint::open(&path, &header()).unwrap();
    assert!(old.is_empty());
    checkpoint.record(TaskId(3), &result(16)).unwrap();
    checkpoint.record(TaskId(0), &result(8)).unwrap();
    checkpoint.sync().unwrap();
    drop(checkpoint);
    let (_, old) = Checkpoint::open(&path, &header()).unwrap();
    assert_eq!(old, vec![(TaskId(3), result(16)), (TaskId(0), result(8))]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("nqueens-counter-checkpoint v3 n=8 depth=4 tasks=78 task-list="));
    let pid = format!(" pid={:010}\n", std::process::id());
    assert!(text.lines().next().unwrap().len() <= MAX_HEADER);
    assert!(text.contains(&pid), "{text}");
    // The check value covers the fingerprint, the id and the three numbers.
    let fingerprint = header().fingerprint;
    let check = checksum::check(&format!("{fingerprint} 3 16 2 116"));
    assert!(text.ends_with(&format!("\n3 16 2 116 {check}\n{}", record(0, 8))));
}

#[test]
fn the_timer_syncs_a_lone_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
    checkpoint.record(TaskId(3), &result(16)).unwrap();
    assert!(!checkpoint.is_synced());
    checkpoint.sync_if_due().unwrap();
    assert!(!checkpoint.is_synced(), "not yet due");
    std::thread::sleep(SYNC_INTERVAL + Duration::from_millis(50));
    checkpoint.sync_if_due().unwrap();
    assert!(checkpoint.is_synced());
}

#[test]
fn a_torn_last_line_is_dropped_and_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (mut checkpoint, _) = Checkpoint::open(&path, &header()).unwrap();
    checkpoint.record(TaskId(1), &result(8)).unwrap();
    drop(checkpoint);
    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"7 16 2").unwrap();
    drop(file);
    let (mut checkpoint, old) = Checkpoint::open(&path, &header()).unwrap();
    assert_eq!(old, vec![(TaskId(1), result(8))]);
    checkpoint.record(TaskId(7), &result(16)).unwrap();
    drop(checkpoint);
    assert!(std::fs::read_to_string(&path).unwrap().ends_with(&format!(
        "\n{}{}",
        record(1, 8),
        record(7, 16)
    )));
    // A torn header is no checkpoint at all: it is started afresh, whoever wrote it.
    let other = header().line(4_000_000_000);
    for cut in [0, 21, other.len() - 6, other.len() - 1] {
        std::fs::write(&path, &other[..cut]).unwrap();
        let (_, old) = Checkpoint::open(&path, &header()).unwrap();
        assert!(old.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), me(), "cut {cut}");
    }
    // Any other file without a newline is not touched.
    std::fs::write(&path, "precious").unwrap();
    let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
    assert!(
        error.contains("line 1: not an nqueens counter checkpoint"),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
}

#[test]
fn damage_and_mismatches_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let good = me();
    let r1 = record(1, 8);
    let v1 = good.replace(" v3 ", " v1 ");
    let cases: Vec<(String, &str)> = vec![
        (
            format!("{good}{r1}x 8 1 9 00000000\n"),
            "line 3: expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found 'x 8 1 9 00000000'",
        ),
        (
            format!("{good}{r1}{r1}"),
            "line 3: task 1 is recorded twice",
        ),
        (
            format!(
                "{good}{}",
                record_line(header().fingerprint, TaskId(78), &result(8))
            ),
            "line 2: task 78 does not exist (there are 78)",
        ),
        (
            format!(
                "{good}{}",
                record_line(
                    header().fingerprint,
                    TaskId(1),
                    &TaskResult {
                        total: 9,
                        unique: 1,
                        nodes: 9
                    }
                )
            ),
            "line 2: task 1: total 9 is not between 1 and 8 times unique 1",
        ),
        (
            format!("{good}{}", r1.replacen("8", "16", 1)),
            "line 2: record '1 16 1 108 ",
        ),
        (
            format!("{good}1 8 1 108\n"),
            "line 2: expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found '1 8 1 108'",
        ),
        (
            format!("{good}{r1}1 8 1 108 0\u{1b}]0;x\u{7}\n"),
            "line 3: record '1 8 1 108 0\\u{1b}]0;x\\u{7}' fails its check value",
        ),
        (
            "hello\n".to_string(),
            "line 1: not an nqueens counter checkpoint",
        ),
        (
            good.replacen("n=8", "n=9", 1),
            "line 1: the header fails its check value: the file is damaged",
        ),
        (
            v1,
            "was written in checkpoint format v1; this nqueens reads formats v2 and v3 only",
        ),
        (
            Header::new(&TaskList::new(9), Shard::ALL).line(1),
            "is for n = 9, not n = 8",
        ),
        (
            Header::new(&TaskList::new(8), "2/3".parse().unwrap()).line(1),
            "holds shard 2/3, not shard 1/1",
        ),
        (
            format!("{good}{r1}{}", position(1, 3)),
            "line 3: task 1 has a position after its result",
        ),
        (
            format!("{good}{}", position(1, 3).replacen(":3 ", ":x ", 1)),
            "line 2: expected 'ID TOTAL UNIQUE NODES CHECK' or 'ID CUT:PIECES TOTAL UNIQUE NODES CHECK', found '1 6:x ",
        ),
        (
            format!(
                "{good}{}",
                position_line(
                    header().fingerprint,
                    TaskId(2),
                    &Partial {
                        cut: 33,
                        ..Partial::default()
                    }
                )
            ),
            "line 2: expected",
        ),
        (
            format!("{good}{}", position(2, 3).replacen(":3 ", ":4 ", 1)),
            "line 2: record '2 6:4 ",
        ),
    ];
    for (text, message) in cases {
        std::fs::write(&path, &text).unwrap();
        let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
        assert!(error.contains(message), "{error:?} lacks {message:?}");
        assert!(!error.contains('\n'));
        // The file is left as it was.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    let other = Header {
        fingerprint: Fingerprint(header().fingerprint.0 ^ 1),
        ..header()
    };
    std::fs::write(&path, other.line(1)).unwrap();
    let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
    assert!(
        error.contains("was written for another task list"),
        "{error}"
    );
}

#[test]
fn a_second_open_names_the_holder_and_special_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let (_held, _) = Checkpoint::open(&path, &header()).unwrap();
    let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "checkpoint {} is in use by process {}: two runs on one checkpoint would ruin it",
            path.display(),
            std::process::id()
        )
    );
    let error = Checkpoint::open(dir.path(), &header())
        .unwrap_err()
        .to_string();
    assert!(
        error.ends_with("is a directory, not a regular file"),
        "{error}"
    );
    #[cfg(unix)]
    {
        let error = Checkpoint::open(Path::new("/dev/zero"), &header())
            .unwrap_err()
            .to_string();
        assert!(
            error.ends_with("is a device, not a regular file"),
            "{error}"
        );
    }
}

#[test]
fn a_file_longer_than_the_format_allows_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let limit = header().max_file_len() as usize;
    let text = format!("{}{}", me(), "\n".repeat(limit));
    std::fs::write(&path, &text).unwrap();
    let error = Checkpoint::open(&path, &header()).unwrap_err().to_string();
    assert!(
        error.contains(&format!(
            "is longer than any checkpoint of this count can be (more than {limit} bytes)"
        )),
        "{error}"
    );
}
