//! Hashing many files on every core, with each result handed back in
//! argument order.
//!
//! The files are cut into runs of consecutive arguments; each worker
//! thread takes the next run, reads its small files whole and hashes them
//! together through the many-message lanes (`Algorithm::many`), streams
//! its large ones, and sends the run's results to the calling thread,
//! which hands them on in order as the gaps fill. Standard input is
//! hashed by the calling thread when its turn comes, so it is read once,
//! in order, while the workers go on.

use crate::algorithm::{Algorithm, Hashed};
use crate::input::{self, Buffers, Opened};
use std::io;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Something to hash.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    Stdin,
    Path(&'a Path),
}

/// A file's digest, or why it has none.
pub(crate) type Outcome = io::Result<Hashed>;

/// Files per run at most: enough to fill the lanes many times over.
const MAX_RUN: usize = 64;

/// Hashes every source and calls `deliver` with each index and outcome,
/// in index order; stops at the first error `deliver` returns.
///
/// # Errors
///
/// The first error of `deliver` (a closed standard output, say).
pub(crate) fn hash_in_order<E>(
    algorithm: Algorithm,
    sources: &[Source<'_>],
    mut deliver: impl FnMut(usize, Outcome) -> Result<(), E>,
) -> Result<(), E> {
    let files = sources
        .iter()
        .filter(|s| matches!(s, Source::Path(_)))
        .count();
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files);
    // Runs short enough that every thread gets several, so one that
    // meets large files does not leave the others idle at the end.
    let run = (sources.len() / (threads.max(1) * 4)).clamp(1, MAX_RUN);
    let runs = sources.len().div_ceil(run);
    let range = |r: usize| r * run..((r + 1) * run).min(sources.len());
    let mut ordered = Ordered::new(sources);
    let mut buffers = Buffers::new();

    if threads <= 1 {
        for r in 0..runs {
            ordered.fill(hash_run(algorithm, sources, range(r), &mut buffers));
            ordered.deliver_ready(algorithm, &mut buffers, &mut deliver)?;
        }
        return Ok(());
    }

    let next_run = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            let (next_run, stop) = (&next_run, &stop);
            scope.spawn(move || {
                let mut buffers = Buffers::new();
                while !stop.load(Ordering::Relaxed) {
                    let r = next_run.fetch_add(1, Ordering::Relaxed);
                    if r >= runs {
                        break;
                    }
                    let results = hash_run(algorithm, sources, range(r), &mut buffers);
                    if sender.send(results).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let result = (|| {
            loop {
                ordered.deliver_ready(algorithm, &mut buffers, &mut deliver)?;
                match receiver.recv() {
                    Ok(results) => ordered.fill(results),
                    // Every worker is done and every file delivered but
                    // standard input, which `deliver_ready` just read.
                    Err(mpsc::RecvError) => return Ok(()),
                }
            }
        })();
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// Outcomes waiting for their turn.
struct Ordered<'s, 'a> {
    sources: &'s [Source<'a>],
    slots: Vec<Option<Outcome>>,
    next: usize,
}

impl<'s, 'a> Ordered<'s, 'a> {
    fn new(sources: &'s [Source<'a>]) -> Ordered<'s, 'a> {
        Ordered {
            sources,
            slots: sources.iter().map(|_| None).collect(),
            next: 0,
        }
    }

    fn fill(&mut self, results: Vec<(usize, Outcome)>) {
        for (index, outcome) in results {
            self.slots[index] = Some(outcome);
        }
    }

    /// Delivers from the next index on while outcomes are there, hashing
    /// standard input where it comes.
    fn deliver_ready<E>(
        &mut self,
        algorithm: Algorithm,
        buffers: &mut Buffers,
        deliver: &mut impl FnMut(usize, Outcome) -> Result<(), E>,
    ) -> Result<(), E> {
        while self.next < self.sources.len() {
            let outcome = match self.sources[self.next] {
                Source::Stdin => input::stdin(algorithm, buffers),
                Source::Path(_) => match self.slots[self.next].take() {
                    Some(outcome) => outcome,
                    None => return Ok(()),
                },
            };
            deliver(self.next, outcome)?;
            self.next += 1;
        }
        Ok(())
    }
}

/// Hashes the files of `sources[range]` (standard input is left to the
/// caller): small ones together, large ones streamed.
fn hash_run(
    algorithm: Algorithm,
    sources: &[Source<'_>],
    range: Range<usize>,
    buffers: &mut Buffers,
) -> Vec<(usize, Outcome)> {
    let mut done = Vec::with_capacity(range.len());
    let mut batch: Vec<(usize, Range<usize>)> = Vec::new();
    for index in range {
        let Source::Path(path) = sources[index] else {
            continue;
        };
        match input::open(path, algorithm, buffers) {
            Ok(Opened::Whole(message)) => {
                batch.push((index, message));
                if buffers.full() {
                    hash_batch(algorithm, buffers, &mut batch, &mut done);
                }
            }
            Ok(Opened::Hashed(hashed)) => done.push((index, Ok(hashed))),
            Err(error) => done.push((index, Err(error))),
        }
    }
    hash_batch(algorithm, buffers, &mut batch, &mut done);
    done
}

/// Hashes the files read into the arena so far, in one many-message
/// call, and empties it.
fn hash_batch(
    algorithm: Algorithm,
    buffers: &mut Buffers,
    batch: &mut Vec<(usize, Range<usize>)>,
    done: &mut Vec<(usize, Outcome)>,
) {
    let hashed = match &batch[..] {
        [] => return,
        [(_, one)] => vec![algorithm.one(buffers.message(one.clone()))],
        many => {
            let messages: Vec<&[u8]> = many
                .iter()
                .map(|(_, range)| buffers.message(range.clone()))
                .collect();
            algorithm.many(&messages)
        }
    };
    done.extend(
        batch
            .drain(..)
            .map(|(index, _)| index)
            .zip(hashed.into_iter().map(Ok)),
    );
    buffers.clear();
}
