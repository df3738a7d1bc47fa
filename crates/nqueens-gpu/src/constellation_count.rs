//! The GPU's count from constellations ([`GpuCounter::count_constellations`]): every
//! representative cut on the host into starts, the starts counted by the constellation kernel
//! (plain completions, no symmetry check), and the totals multiplied on the host (see
//! [`constellations`]). A thread of its own cuts the constellations one after another while
//! the kernel counts the starts cut before, streamed to it in batches sized by time, and each
//! batch is uploaded and sent before the one on the GPU is read back, so the host's cut, its
//! packing and its read-back overlap the GPU's work, the host holds a few batches of starts
//! at most, and a stop (Ctrl-C in `nqueens count`) is seen between batches. `--stats` shows the
//! share of the time the GPU waited for the host (`gpu_wait`, from the GPU's own timestamps).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use nqueens_solver::engines::counter::MAX_N;
use nqueens_solver::runs::device::{DeviceError, SubBoard, SubBoardResult};
use wgpu::util::DeviceExt;

use crate::buffers::{Kernel, Measured, build_pipeline, bytes};
use crate::constellations::{self, Constellation, HostPart, Rows};
use crate::counter::{CHUNK, GpuCounter, InFlight, Outcome};
use crate::error::GpuError;

/// The first batch of starts of a count from constellations: small enough to come back
/// within a second even on a software driver, whatever n.
const FIRST_BATCH: usize = 1 << 12;

/// The next batch's size after `done` starts took `took`: as many as fill `target` at that
/// pace, at least [`FIRST_BATCH`], at most twice `done` and at most [`CHUNK`].
fn next_batch(done: usize, took: Duration, target: Duration) -> usize {
    let fit = done as f64 * target.as_secs_f64() / took.as_secs_f64().max(1e-6);
    (fit as usize).clamp(FIRST_BATCH, (2 * done).clamp(FIRST_BATCH, CHUNK))
}

/// What a count from constellations found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConstellationCount {
    /// The solutions of the n×n board.
    pub total: u64,
    /// Queens placed, by the host and by the kernel (not the class kernel's count: the
    /// searches differ).
    pub nodes: u64,
    /// Representatives searched.
    pub constellations: u64,
    /// Starts the host cut them into (before any was cut deeper).
    pub starts: u64,
    /// The kernel's steps on the starts it counted.
    pub steps: u64,
    /// Starts the kernel gave up on (cut a row deeper and sent again).
    pub gave_up: u64,
    /// Batches sent while the one before was still on the GPU.
    pub overlapped: u64,
    /// The seconds the kernel's passes ran, by the GPU's own clock (where the adapter has
    /// timestamps).
    pub gpu_busy_s: Option<f64>,
    /// The share of the span from the first pass's start to the last one's end that the GPU
    /// spent waiting for the host (where the adapter has timestamps).
    pub gpu_wait: Option<f64>,
}

/// A count from constellations under way: the tables, the starts cut and not yet counted,
/// the next batch's size and the count so far.
struct Batches<'a> {
    tables: &'a [Rows],
    multiplicity: Vec<u64>,
    pending: Vec<SubBoard>,
    batch: usize,
    count: ConstellationCount,
}

/// A piece of the host's cut, sent from the cutting thread: starts, and what the host counted
/// on its way to them (solutions multiplied by their orbits' sizes, queens placed).
#[derive(Default)]
struct Piece {
    boards: Vec<SubBoard>,
    solutions: u64,
    nodes: u64,
}

/// A batch on the GPU: its starts, its dispatch and when it was sent.
struct Sent {
    part: Vec<SubBoard>,
    flight: InFlight,
    began: Instant,
}

/// Starts per piece of the cut.
const PIECE: usize = FIRST_BATCH;

/// Pieces the cutting thread may run ahead of the kernel: two of the largest batches.
const AHEAD: usize = 2 * CHUNK / PIECE;

/// Rows above the start row at which a constellation's cut is paused (see
/// [`GpuCounter::count_constellations_until`]): a few thousand queens at most from each such
/// placement to the starts.
const TOP_ROWS: u32 = 5;

impl GpuCounter {
    /// The solutions of the n×n board (1 ≤ n ≤ 32), counted from constellations: the host
    /// cuts every representative (`rows` of the tuning left to the kernel; the starts in the
    /// cut's order, constellation by constellation), the kernel counts their completions, and the host
    /// multiplies each by its orbit's size. Total only: unique solutions need the class
    /// kernel ([`Device`](nqueens_solver::runs::Device)).
    pub fn count_constellations(&mut self, n: u32) -> Result<ConstellationCount, DeviceError> {
        let never = AtomicBool::new(false);
        let count = self.count_constellations_until(n, &never)?;
        Ok(count.expect("never stopped"))
    }

    /// [`count_constellations`](Self::count_constellations), stopped when `stop` is raised.
    /// A thread of its own cuts the constellations one after another (in pieces of 4,096
    /// starts, up to two of the largest batches ahead) while this one sends the starts to the
    /// kernel in batches sized to take about the tuning's `batch_ms` each (from 4,096 starts,
    /// at most doubling from one batch to the next): the host cuts while the GPU counts, holds
    /// about two batches of starts at a time, not all of them, and `stop` is seen between
    /// pieces and between batches, within about a batch's time. Each batch is sent before
    /// the one on the GPU is read back, so the GPU goes from one to the next.
    /// `Ok(None)` when it stopped (nothing of the count is kept: it has no checkpoint).
    pub fn count_constellations_until(
        &mut self,
        n: u32,
        stop: &AtomicBool,
    ) -> Result<Option<ConstellationCount>, DeviceError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(DeviceError(GpuError::TooLarge(n).to_string()));
        }
        let kernel_rows = self.tuning.rows.min(self.max_rows());
        let Some(found) = constellations::constellations_until(n, stop) else {
            return Ok(None);
        };
        let tables: Vec<Rows> = found.iter().map(|c| c.rows(n)).collect();
        let mut run = Batches {
            multiplicity: found.iter().map(|c| u64::from(c.multiplicity)).collect(),
            tables: &tables,
            pending: Vec::new(),
            batch: FIRST_BATCH,
            count: ConstellationCount {
                constellations: found.len() as u64,
                ..ConstellationCount::default()
            },
        };
        if found.iter().any(|c| c.free_rows(n) > 0) {
            self.load_constellations(&tables)?;
        }
        // The GPU's clock, for this count alone.
        self.measured = Measured::default();
        let counted = std::thread::scope(|scope| {
            let (pieces, arriving) = sync_channel(AHEAD);
            let (found, tables) = (&found, &tables);
            scope.spawn(move || cut_all(n, kernel_rows, found, tables, stop, pieces));
            self.count_pieces(n, &mut run, arriving, stop)
        })?;
        if counted.is_none() {
            return Ok(None);
        }
        if let (Some(tick), Some(first)) = (self.tick, self.measured.first_tick) {
            let span = (self.measured.last_tick - first) as f64 * tick;
            run.count.gpu_busy_s = Some(self.measured.busy_ns * 1e-9);
            run.count.gpu_wait = Some(1.0 - self.measured.busy_ns / span.max(1.0));
        }
        Ok(Some(run.count))
    }

    /// Counts the starts arriving from the cutting thread, batch by batch, and those given
    /// up on (cut deeper and sent again) after them; `Ok(None)` once `stop` is raised. One
    /// batch is on the GPU while the next is gathered and uploaded: the next batch is sent
    /// before the one on the GPU is read back. Takes the channel's end, so the cutting
    /// thread ends when this returns, whatever it returns.
    fn count_pieces(
        &mut self,
        n: u32,
        run: &mut Batches,
        arriving: Receiver<Piece>,
        stop: &AtomicBool,
    ) -> Result<Option<()>, DeviceError> {
        let mut open = true;
        let mut sent: Option<Sent> = None;
        loop {
            while open && run.pending.len() < run.batch {
                match arriving.recv() {
                    Ok(piece) => {
                        run.count.total += piece.solutions;
                        run.count.nodes += piece.nodes;
                        run.count.starts += piece.boards.len() as u64;
                        run.pending.extend(piece.boards);
                    }
                    Err(_) => open = false,
                }
            }
            if stop.load(Ordering::Relaxed) {
                if let Some(last) = sent {
                    // Its slot back, its results dropped.
                    self.collect(last.flight)?;
                }
                return Ok(None);
            }
            let next = if run.pending.is_empty() {
                None
            } else {
                let take = run.batch.min(run.pending.len());
                let part: Vec<SubBoard> = run.pending.drain(..take).collect();
                let began = Instant::now();
                let flight = self.dispatch_with(Kernel::Constellations, n, &part, 0)?;
                run.count.overlapped += u64::from(sent.is_some());
                Some(Sent {
                    part,
                    flight,
                    began,
                })
            };
            if let Some(done) = sent.take() {
                self.finish_batch(run, done)?;
            }
            sent = next;
            if sent.is_none() && run.pending.is_empty() && !open {
                return Ok(Some(()));
            }
        }
    }

    /// Reads back a batch the GPU counted: its completions multiplied into the count, the
    /// starts given up on cut a row deeper and those no invocation took put back; the next
    /// batch sized from its time.
    fn finish_batch(&mut self, run: &mut Batches, done: Sent) -> Result<(), DeviceError> {
        let outcomes = self.collect(done.flight)?;
        run.batch = next_batch(
            done.part.len(),
            done.began.elapsed(),
            Duration::from_millis(self.tuning.batch_ms),
        );
        let tables = run.tables;
        for (board, outcome) in done.part.iter().zip(outcomes) {
            let k = board.b1 as usize;
            match outcome {
                Outcome::Done(result, steps) => {
                    run.count.total += result.eightfold * run.multiplicity[k];
                    run.count.nodes += result.nodes;
                    run.count.steps += u64::from(steps);
                }
                Outcome::GaveUp => {
                    run.count.gave_up += 1;
                    let (b1, row) = (board.b1, board.row + 1);
                    let host =
                        constellations::cut(&tables[k], b1, b1, board, row, &mut run.pending);
                    run.count.total += host.solutions * run.multiplicity[k];
                    run.count.nodes += host.nodes;
                }
                Outcome::Untouched => run.pending.push(*board),
            }
        }
        Ok(())
    }

    /// What the constellation kernel finds for each start (of the n×n board, under `tables`,
    /// indexed by the starts' `b1`) and the steps it took: `None` where it gave up. For tests
    /// against [`constellations::emulate`] and to measure the lanes' work.
    pub fn count_starts(
        &mut self,
        n: u32,
        tables: &[Rows],
        boards: &[SubBoard],
    ) -> Result<Vec<Option<(SubBoardResult, u32)>>, DeviceError> {
        self.load_constellations(tables)?;
        self.count_with(Kernel::Constellations, n, boards, |b| {
            let last = tables[b.b1 as usize].last;
            (last + 1).saturating_sub(b.row) as usize
        })
    }

    /// Builds the constellation kernel (once) and uploads `tables`.
    fn load_constellations(&mut self, tables: &[Rows]) -> Result<(), DeviceError> {
        if self.constellation.is_none() {
            self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let pipeline = build_pipeline(&self.device, &self.tuning, true);
            if let Some(e) = pollster::block_on(self.device.pop_error_scope()) {
                return Err(DeviceError(format!(
                    "the constellation kernel does not build: {e}"
                )));
            }
            self.constellation = Some(pipeline);
        }
        let words: Vec<u32> = tables.iter().flat_map(Rows::words).collect();
        self.constellation_tables = Some(self.device.create_buffer_init(
            &wgpu::util::BufferInitDescriptor {
                label: Some("constellation tables"),
                contents: &bytes(&words),
                usage: wgpu::BufferUsages::STORAGE,
            },
        ));
        Ok(())
    }
}

/// The cutting thread: every constellation cut for a kernel of `kernel_rows` rows, in order,
/// sent in pieces of about [`PIECE`] starts; ends early when `stop` is raised or the counting
/// side hangs up. Each is cut in two steps, to [`TOP_ROWS`] above the start row and from each
/// of those placements on, so that a stop or a full piece is seen between them (one
/// constellation's cut is millions of starts on a software driver's short kernel).
fn cut_all(
    n: u32,
    kernel_rows: usize,
    found: &[Constellation],
    tables: &[Rows],
    stop: &AtomicBool,
    pieces: SyncSender<Piece>,
) {
    let mut piece = Piece::default();
    for (i, (c, rows)) in found.iter().zip(tables).enumerate() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let multiplicity = u64::from(c.multiplicity);
        if c.free_rows(n) == 0 {
            // The border queens are the whole solution (n = 1, or one of n = 4's).
            piece.solutions += multiplicity;
            continue;
        }
        let i = i as u32;
        let from = constellations::root(n, c, i);
        let row = constellations::start_row(rows, kernel_rows);
        let mut tops = Vec::new();
        let top_row = row.saturating_sub(TOP_ROWS).max(from.row);
        let add = |piece: &mut Piece, host: HostPart| {
            piece.solutions += host.solutions * multiplicity;
            piece.nodes += host.nodes;
        };
        let host = constellations::cut(rows, i, i, &from, top_row, &mut tops);
        add(&mut piece, host);
        for top in &tops {
            let host = constellations::cut(rows, i, i, top, row, &mut piece.boards);
            add(&mut piece, host);
            let full = piece.boards.len() >= PIECE;
            if full
                && (stop.load(Ordering::Relaxed)
                    || pieces.send(std::mem::take(&mut piece)).is_err())
            {
                return;
            }
        }
    }
    // The last piece (sent even when empty: it may carry the host's solutions).
    let _ = pieces.send(piece);
}
