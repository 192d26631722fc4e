//! The progress line: while a search runs for more than a second, stderr (a
//! terminal) shows the states reached and saved, the depth, the rate, the prover calls,
//! the resident memory and the time,
//! rewritten in place and erased at the end. Never when stderr is not a
//! terminal, with `--format json|sarif`, or with `-q`.

use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tass_verify::api::Progress;

use crate::args::{CheckArgs, Format};

/// How long a run goes before the line appears (short runs print nothing).
const QUIET_START: Duration = Duration::from_secs(1);
/// How often the line is rewritten.
const PERIOD: Duration = Duration::from_millis(250);

/// A running progress line; [`ProgressLine::finish`] erases it.
pub(crate) struct ProgressLine {
    done: Arc<AtomicBool>,
    printer: JoinHandle<()>,
}

impl ProgressLine {
    /// The counters for `Options::progress` and the line that shows them, when
    /// the run prints text to a terminal; `None` otherwise.
    pub(crate) fn start(check: &CheckArgs) -> Option<(Arc<Progress>, ProgressLine)> {
        if check.quiet || check.format != Format::Text || !std::io::stderr().is_terminal() {
            return None;
        }
        let progress = Arc::new(Progress::default());
        let done = Arc::new(AtomicBool::new(false));
        let printer = {
            let (progress, done) = (Arc::clone(&progress), Arc::clone(&done));
            std::thread::spawn(move || print_until_done(&progress, &done))
        };
        Some((progress, ProgressLine { done, printer }))
    }

    /// Stops the line and erases it (before the report is printed).
    pub(crate) fn finish(self) {
        self.done.store(true, Ordering::SeqCst);
        self.printer.thread().unpark();
        let _ = self.printer.join();
    }
}

fn print_until_done(progress: &Progress, done: &AtomicBool) {
    let started = Instant::now();
    let mut shown = false;
    while !done.load(Ordering::SeqCst) {
        std::thread::park_timeout(PERIOD);
        let elapsed = started.elapsed();
        if done.load(Ordering::SeqCst) || elapsed < QUIET_START {
            continue;
        }
        let states = progress.states();
        let rate = states as f64 / elapsed.as_secs_f64();
        let mut err = std::io::stderr().lock();
        let memory = tass_verify::api::resident_bytes().map_or_else(String::new, |bytes| {
            format!(", {} MB", bytes / (1024 * 1024))
        });
        let _ = write!(
            err,
            "\r\x1b[Ktass: {states} states ({} saved), depth {}, {rate:.0} states/s, {} prover calls{memory}, {:.1} s",
            progress.saved(),
            progress.depth(),
            progress.prover_calls(),
            elapsed.as_secs_f64()
        );
        let _ = err.flush();
        shown = true;
    }
    if shown {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K");
        let _ = err.flush();
    }
}
