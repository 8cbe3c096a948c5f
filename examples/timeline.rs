//! A timeline of two shares of a 2-worker pool, holding 300 and 100 tickets: both run
//! for 200 ms (3:1), then the second runs alone for 100 ms (it gets both cores).
//!
//! ```sh
//! cargo run --release --features trace --example timeline [OUT_DIR]
//! ```
//!
//! writes `timeline.json` (open it in <https://ui.perfetto.dev> or chrome://tracing)
//! and `timeline.svg` (any browser) to OUT_DIR (default: the current directory), and
//! prints what each share did and what the counters say.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use prorata::prelude::*;
use prorata::{Share, ThreadPoolBuilder};

/// About a microsecond of work that the optimiser cannot remove.
fn item(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

/// Runs a long `par_iter` of equal items in `share` until `stop` is set, counting the
/// items done in `count`.
fn keep_busy(share: &Share, stop: &AtomicBool, count: &AtomicU64) {
    while !stop.load(Ordering::Relaxed) {
        share.install(|| {
            (0..2_000_000u64).into_par_iter().for_each(|i| {
                if !stop.load(Ordering::Relaxed) {
                    std::hint::black_box(item(i));
                    count.fetch_add(1, Ordering::Relaxed);
                }
            })
        });
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".to_owned()));
    let both = Duration::from_millis(200);
    let alone = Duration::from_millis(100);

    let pool = ThreadPoolBuilder::new().num_threads(2).build()?;
    let fg = pool.share(300)?;
    let bg = pool.share(100)?;
    let (fg_count, bg_count) = (AtomicU64::new(0), AtomicU64::new(0));
    let (fg_stop, bg_stop) = (AtomicBool::new(false), AtomicBool::new(false));

    pool.start_trace();
    let bg_both = std::thread::scope(|s| {
        let fg_thread = s.spawn(|| keep_busy(&fg, &fg_stop, &fg_count));
        s.spawn(|| keep_busy(&bg, &bg_stop, &bg_count));
        std::thread::sleep(both);
        fg_stop.store(true, Ordering::Relaxed);
        fg_thread.join().unwrap();
        let bg_both = bg_count.load(Ordering::Relaxed);
        std::thread::sleep(alone);
        bg_stop.store(true, Ordering::Relaxed);
        bg_both
    });
    let trace = pool.stop_trace();
    let fg_items = fg_count.into_inner();
    let bg_alone = bg_count.into_inner() - bg_both;

    let json = dir.join("timeline.json");
    let svg = dir.join("timeline.svg");
    trace.write_chrome_json(File::create(&json)?)?;
    trace.write_svg(File::create(&svg)?)?;

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "recorded {:.0} ms, {} lanes, {} events ({} lost)",
        ms(trace.duration()),
        trace.lanes().len(),
        trace.lanes().iter().map(|l| l.events.len()).sum::<usize>(),
        trace.lost_events()
    );
    println!(
        "while both ran: share 1 (300 tickets) did {fg_items} items, share 2 (100 tickets) \
         {bg_both}: {:.2} : 1 (tickets 3 : 1)",
        fg_items as f64 / bg_both.max(1) as f64
    );
    println!(
        "share 2 alone: {:.0} items/ms, against {:.0} items/ms while sharing",
        bg_alone as f64 / ms(alone),
        bg_both as f64 / ms(both)
    );
    println!("pool:    {:?}", pool.stats());
    println!("share 1: {:?}", fg.stats());
    println!("share 2: {:?}", bg.stats());
    println!(
        "wrote {} (open in https://ui.perfetto.dev or chrome://tracing) and {}",
        json.display(),
        svg.display()
    );
    Ok(())
}
