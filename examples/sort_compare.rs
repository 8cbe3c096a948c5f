//! Times std, Rayon and prorata sorts side by side on a grid of lengths and
//! input shapes, and prints prorata's time over std's and over Rayon's.
//!
//! Each round times the sorts one after the other on fresh copies of the same
//! input, so load changes on a shared machine hit all of them alike; the figure
//! kept is the best over the rounds. Each round of the grid draws a new input
//! of the cell's shape (the same for all the sorts of the round): sorting one
//! input again and again lets the processor learn the outcomes of a sort's
//! branches, which a program sorting new data does not get (at 10^3 on 1
//! worker, prorata's unstable sort of random `f64`s took 1.03-1.06 of std's
//! time on one input sorted again and again, 0.56-0.71 on new ones: std's
//! sort branches on its comparisons, prorata's mostly selects). `SAME_INPUT=1`
//! sorts the same input in every round. The parallel sorts are called and
//! timed on one of their own pool's threads (inside `install`), so the round
//! trip into the pool is not counted; std's sorts run on a thread of
//! prorata's pool too, so that they run where prorata's do. `OUTSIDE=1` calls
//! every sort from the main thread instead, as a program calls
//! `v.par_sort_unstable()`: the parallel sorts then run on their global pools
//! (of `THREADS` threads), and a sort that goes parallel pays the round trip
//! into the pool and back.
//!
//! ```text
//! cargo run --release --example sort_compare [--full] [len ...]
//! ```
//!
//! Without lengths it runs the grid at 10^3, 10^4 and 10^5 (a few seconds);
//! `--full` runs the whole grid, 10^3 to 10^7 (`String`s and 64-byte elements
//! to 10^6). Shapes: random `u64`, 16 distinct values, sorted, reversed,
//! ascending runs with noise, four sorted runs, `(u32, u32)`, `(u64, u64)`,
//! `f64` by `total_cmp`, `String`s and 64-byte elements. `THREADS` sets the pools' threads (default 2),
//! `ROUNDS` the rounds per cell (default 7, 3 from 10^7). After the grid come
//! the harder inputs of Rayon's comparison (nearly sorted, 128-byte elements,
//! an allocating key, a costly comparator) at 5·10^4 (and 10^6 with
//! `--full`), with the number of comparator calls (`HARD=0` leaves them out),
//! and the two-thread ceiling at the largest length. `ONLY=text` runs only the
//! rows whose names contain `text` (`ONLY=a,b`: `a` or `b`). `GAP_US=n` pauses `n` µs after each timed
//! sort: the pool that ran it goes to sleep before the next sort starts (a
//! pool's idle threads look for work for a while, and on 2 cores they take
//! time from the sort that follows), and each sort starts as on an idle
//! program's pool.
//!
//! The order of the sorts changes from round to round so that each follows
//! each of the others equally often: what ran just before moves a sort's time
//! by up to twice (a sorted 10^6 `u64`s, 0.3 ms of reading memory, took
//! 0.42-0.66 ms first in its round or right after Rayon's sort on Rayon's
//! pool, 0.28-0.33 ms right after another sort on the same thread). Rounds
//! rotate the order by one every second round and run it backwards every
//! other round; a plain rotation would put prorata's sort, third, always
//! first or right after Rayon's, and std's never after Rayon's.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

#[path = "common/sort_grid.rs"]
mod sort_grid;

use sort_grid::{random, with_swaps};

/// The two pools the parallel sorts run on.
struct Pools {
    prorata: prorata::ThreadPool,
    rayon: rayon::ThreadPool,
}

/// A sort under test, given a fresh copy of the input.
type Sorter<'a, T> = &'a (dyn Fn(&mut Vec<T>) + Sync);

/// A plain sort and where it runs.
type PlacedSort<T> = (Place, fn(&mut Vec<T>));

/// Which sort this is, and so where it runs: std's sequential sorts run on a
/// thread of prorata's pool, as prorata's sorts do (the machine's cores are
/// not always alike, so a sort timed on another thread could be timed on
/// another core), Rayon's on a thread of its own pool.
#[derive(Clone, Copy)]
enum Place {
    Sequential,
    Rayon,
    Prorata,
}

/// Rounds per cell of `len` elements.
fn rounds(len: usize) -> usize {
    let default = if len >= 10_000_000 { 3 } else { 7 };
    std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(default)
}

/// Times one sort of a fresh copy of `input`, where `place` says.
fn time_once<T: Clone + Send + Sync>(
    pools: &Pools,
    place: Place,
    input: &[T],
    sort: Sorter<'_, T>,
) -> Duration {
    let run = || {
        let mut v = input.to_vec();
        let start = Instant::now();
        sort(&mut v);
        let elapsed = start.elapsed();
        black_box(&v);
        elapsed
    };
    let elapsed = match place {
        _ if outside() => run(),
        Place::Sequential | Place::Prorata => pools.prorata.install(run),
        Place::Rayon => pools.rayon.install(run),
    };
    if let Some(gap) = gap() {
        std::thread::sleep(gap);
    }
    elapsed
}

/// Whether the sorts are called from the main thread (`OUTSIDE=1`), the
/// parallel ones on their global pools, rather than inside `install`.
fn outside() -> bool {
    std::env::var("OUTSIDE").is_ok_and(|o| o == "1")
}

/// The pause after each timed sort (`GAP_US`), if any.
fn gap() -> Option<Duration> {
    let micros = std::env::var("GAP_US").ok()?.parse().ok()?;
    Some(Duration::from_micros(micros))
}

/// Best times of `sorts` on `input`, timed in the orders of
/// [`order_in_round`].
fn best_times<T: Clone + Send + Sync>(
    pools: &Pools,
    input: &[T],
    sorts: &[(Place, Sorter<'_, T>)],
) -> Vec<Duration> {
    best_times_by_round(pools, input.len(), &|_| Cow::Borrowed(input), sorts)
}

/// Best times of `sorts` on inputs of `len` elements, `input(round)` in each
/// round (borrowed when it is the same in every round, so it is not copied
/// once more), timed in the orders of [`order_in_round`].
fn best_times_by_round<'a, T: Clone + Send + Sync>(
    pools: &Pools,
    len: usize,
    input: &dyn Fn(usize) -> Cow<'a, [T]>,
    sorts: &[(Place, Sorter<'_, T>)],
) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; sorts.len()];
    for round in 0..rounds(len) {
        let input = input(round);
        for k in 0..sorts.len() {
            let i = order_in_round(round, k, sorts.len());
            let (place, sort) = sorts[i];
            best[i] = best[i].min(time_once(pools, place, &input, sort));
        }
    }
    best
}

/// The sort timed `k`-th of `n` in round `round`: the order rotated by one
/// every second round, and backwards in odd rounds, so that (for up to three
/// sorts) each follows each other one equally often.
fn order_in_round(round: usize, k: usize, n: usize) -> usize {
    let k = if round % 2 == 1 { n - 1 - k } else { k };
    (round / 2 + k) % n
}

/// The std, Rayon and prorata sorts of one kind, for an `Ord` element.
fn ord_sorts<T: Ord + Send>(stable: bool) -> [PlacedSort<T>; 3] {
    if stable {
        [
            (Place::Sequential, |v| v.sort()),
            (Place::Rayon, |v| {
                rayon::slice::ParallelSliceMut::par_sort(v.as_mut_slice())
            }),
            (Place::Prorata, |v| {
                prorata::prelude::ParallelSliceMut::par_sort(v.as_mut_slice())
            }),
        ]
    } else {
        [
            (Place::Sequential, |v| v.sort_unstable()),
            (Place::Rayon, |v| {
                rayon::slice::ParallelSliceMut::par_sort_unstable(v.as_mut_slice())
            }),
            (Place::Prorata, |v| {
                prorata::prelude::ParallelSliceMut::par_sort_unstable(v.as_mut_slice())
            }),
        ]
    }
}

/// The sorts of [`ord_sorts`] as [`Sorter`]s.
fn as_sorters<T>(sorts: &[PlacedSort<T>; 3]) -> Vec<(Place, Sorter<'_, T>)> {
    sorts
        .iter()
        .map(|(p, f)| (*p, f as Sorter<'_, T>))
        .collect()
}

/// Prints one cell pair: prorata over std and over Rayon, unstable then stable,
/// on the inputs `make` builds from each round's random numbers.
fn cell<T: Ord + Clone + Send + Sync>(
    pools: &Pools,
    shape: &str,
    len: usize,
    make: impl Fn(&[u64]) -> Vec<T>,
) {
    if !selected(shape) {
        return;
    }
    let same = std::env::var("SAME_INPUT").is_ok_and(|s| s == "1");
    let input =
        |round: usize| Cow::Owned(make(&random(len, 42 + if same { 0 } else { round as u64 })));
    let mut line = format!("{shape:<16} {len:>9}");
    for stable in [false, true] {
        let sorts = ord_sorts::<T>(stable);
        let t = best_times_by_round(pools, len, &input, &as_sorters(&sorts));
        let (std_t, rayon_t, ours) = (t[0], t[1], t[2]);
        line += &format!(
            " | {} std {:8.3} ms  /std {:5.2} /rayon {:5.2}",
            if stable { "  stable" } else { "unstable" },
            std_t.as_secs_f64() * 1e3,
            ours.as_secs_f64() / std_t.as_secs_f64(),
            ours.as_secs_f64() / rayon_t.as_secs_f64(),
        );
    }
    println!("{line}");
}

/// Whether the row named `what` is wanted: `ONLY`, when set, is a part of the
/// names to run.
fn selected(what: &str) -> bool {
    std::env::var("ONLY").map_or(true, |only| only.split(',').any(|o| what.contains(o)))
}

/// Every shape of the grid at one length.
fn grid_row(pools: &Pools, len: usize) {
    for name in sort_grid::U64_SHAPES {
        cell(pools, &format!("u64 {name}"), len, |random| {
            sort_grid::u64_shape(name, random)
        });
    }
    cell(pools, "(u32,u32)", len, sort_grid::pairs);
    cell(pools, "(u64,u64)", len, sort_grid::records);
    cell(pools, "f64 total_cmp", len, sort_grid::floats);
    if len <= 1_000_000 {
        cell(pools, "String", len, sort_grid::strings);
        cell(pools, "64-byte", len, sort_grid::structs);
    }
}

/// Comparator calls, counted.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// A comparator that costs about 100 ns: a chain of float operations and one
/// atomic add per call.
fn costly(a: &u64, b: &u64) -> Ordering {
    CALLS.fetch_add(1, Relaxed);
    let mut x = (*a ^ *b) as f64;
    for _ in 0..40 {
        x = black_box(x.sqrt() + 1.0);
    }
    black_box(x);
    a.cmp(b)
}

/// A counted plain comparison.
fn counted(a: &u64, b: &u64) -> Ordering {
    CALLS.fetch_add(1, Relaxed);
    a.cmp(b)
}

/// Prints prorata's time over Rayon's for one call, and for the stable sort by
/// `compare` the comparator calls of each.
fn hard_cell<T: Clone + Send + Sync>(
    pools: &Pools,
    what: &str,
    input: &[T],
    rayon_sort: Sorter<'_, T>,
    ours: Sorter<'_, T>,
) {
    if !selected(what) {
        return;
    }
    let t = best_times(
        pools,
        input,
        &[(Place::Rayon, rayon_sort), (Place::Prorata, ours)],
    );
    let count = |place, sort| {
        CALLS.store(0, Relaxed);
        time_once(pools, place, input, sort);
        CALLS.load(Relaxed)
    };
    let (rayon_calls, our_calls) = (count(Place::Rayon, rayon_sort), count(Place::Prorata, ours));
    let calls = if rayon_calls > 0 {
        format!(
            "  calls rayon {rayon_calls:>10} prorata {our_calls:>10} ({:5.2})",
            our_calls as f64 / rayon_calls as f64
        )
    } else {
        String::new()
    };
    println!(
        "{what:<34} {:>9} | rayon {:8.3} ms /rayon {:5.2}{calls}",
        input.len(),
        t[0].as_secs_f64() * 1e3,
        t[1].as_secs_f64() / t[0].as_secs_f64(),
    );
}

/// Rayon's comparison inputs at one length.
fn hard_rows(pools: &Pools, len: usize) {
    use prorata::prelude::ParallelSliceMut as P;
    use rayon::slice::ParallelSliceMut as R;
    let swaps = (len as f64).sqrt() as usize;
    let ascending = with_swaps((0..len as u64).collect(), swaps, 3);
    let descending = with_swaps((0..len as u64).rev().collect(), swaps, 4);
    for (name, input) in [
        ("nearly ascending", &ascending),
        ("nearly descending", &descending),
    ] {
        hard_cell(
            pools,
            &format!("{name} unstable"),
            input,
            &|v| R::par_sort_unstable(v.as_mut_slice()),
            &|v| P::par_sort_unstable(v.as_mut_slice()),
        );
        hard_cell(
            pools,
            &format!("{name} unstable (counted)"),
            input,
            &|v| R::par_sort_unstable_by(v.as_mut_slice(), counted),
            &|v| P::par_sort_unstable_by(v.as_mut_slice(), counted),
        );
        hard_cell(
            pools,
            &format!("{name} stable (counted)"),
            input,
            &|v| R::par_sort_by(v.as_mut_slice(), counted),
            &|v| P::par_sort_by(v.as_mut_slice(), counted),
        );
    }
    let random = random(len, 11);
    hard_cell(
        pools,
        "random stable (counted)",
        &random,
        &|v| R::par_sort_by(v.as_mut_slice(), counted),
        &|v| P::par_sort_by(v.as_mut_slice(), counted),
    );
    let strings: Vec<String> = random.iter().map(|x| x.to_string()).collect();
    let counted_str = |a: &String, b: &String| {
        CALLS.fetch_add(1, Relaxed);
        a.cmp(b)
    };
    hard_cell(
        pools,
        "String stable (counted)",
        &strings,
        &|v| R::par_sort_by(v.as_mut_slice(), counted_str),
        &|v| P::par_sort_by(v.as_mut_slice(), counted_str),
    );
    let wide: Vec<[u64; 16]> = random.iter().map(|&x| [x; 16]).collect();
    hard_cell(
        pools,
        "128-byte unstable",
        &wide,
        &|v| R::par_sort_unstable(v.as_mut_slice()),
        &|v| P::par_sort_unstable(v.as_mut_slice()),
    );
    hard_cell(
        pools,
        "128-byte stable",
        &wide,
        &|v| R::par_sort(v.as_mut_slice()),
        &|v| P::par_sort(v.as_mut_slice()),
    );
    let key = |x: &u64| {
        CALLS.fetch_add(1, Relaxed);
        x.to_string()
    };
    hard_cell(
        pools,
        "by_key to_string (key calls)",
        &random,
        &|v| R::par_sort_by_key(v.as_mut_slice(), key),
        &|v| P::par_sort_by_key(v.as_mut_slice(), key),
    );
    hard_cell(
        pools,
        "costly comparator stable",
        &random,
        &|v| R::par_sort_by(v.as_mut_slice(), costly),
        &|v| P::par_sort_by(v.as_mut_slice(), costly),
    );
    hard_cell(
        pools,
        "costly comparator unstable",
        &random,
        &|v| R::par_sort_unstable_by(v.as_mut_slice(), costly),
        &|v| P::par_sort_unstable_by(v.as_mut_slice(), costly),
    );
}

/// Prints what two threads can do at best on this machine: std's sort of each
/// half of the input on a thread of its own (no partition or merge at all),
/// unstable and stable, and each of prorata's sorts over the ceiling of its
/// kind (the stable one also over the unstable ceiling).
fn ceiling(pools: &Pools, len: usize) {
    let input = random(len, 42);
    fn halves(v: &mut [u64], sort: fn(&mut [u64])) {
        let half = v.len() / 2;
        let (low, high) = v.split_at_mut(half);
        std::thread::scope(|s| {
            s.spawn(|| sort(low));
            sort(high);
        });
    }
    let unstable_halves = |v: &mut Vec<u64>| halves(v, <[u64]>::sort_unstable);
    let stable_halves = |v: &mut Vec<u64>| halves(v, <[u64]>::sort);
    let [(_, std_sort), _, (_, unstable)] = ord_sorts::<u64>(false);
    let [_, _, (_, stable)] = ord_sorts::<u64>(true);
    let (std_sort, unstable, stable) = (&std_sort, &unstable, &stable);
    let t = best_times(
        pools,
        &input,
        &[
            (Place::Sequential, std_sort),
            (Place::Sequential, &unstable_halves),
            (Place::Sequential, &stable_halves),
            (Place::Prorata, unstable),
            (Place::Prorata, stable),
        ],
    );
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let of = |ceiling: Duration, sort: Duration| ceiling.as_secs_f64() / sort.as_secs_f64();
    println!(
        "ceiling u64 random {len}: std's unstable sort {:.2} ms; halves on two threads, unstable {:.2} ms, stable {:.2} ms; \
         of the ceiling of their kind: par_sort_unstable {:.2}, par_sort {:.2} (of the unstable ceiling {:.2})",
        ms(t[0]),
        ms(t[1]),
        ms(t[2]),
        of(t[1], t[3]),
        of(t[2], t[4]),
        of(t[1], t[4]),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full");
    let lens: Vec<usize> = args
        .iter()
        .filter(|a| *a != "--full")
        .map(|s| s.parse().expect("a length"))
        .collect();
    let lens = match (lens.is_empty(), full) {
        (false, _) => lens,
        (true, true) => vec![1_000, 10_000, 100_000, 1_000_000, 10_000_000],
        (true, false) => vec![1_000, 10_000, 100_000],
    };
    let threads = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    let pools = Pools {
        prorata: prorata::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a prorata pool"),
        rayon: rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a rayon pool"),
    };
    if outside() {
        prorata::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .expect("prorata's global pool");
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .expect("Rayon's global pool");
    }
    println!(
        "{threads} threads{}; prorata's best time over std's and over Rayon's (lower is faster)",
        if outside() {
            ", called from the main thread"
        } else {
            ", called inside install"
        }
    );
    for &len in &lens {
        grid_row(&pools, len);
    }
    if std::env::var("HARD").map_or(true, |h| h != "0") {
        let hard_lens: &[usize] = if full {
            &[50_000, 1_000_000]
        } else {
            &[50_000]
        };
        for &len in hard_lens {
            hard_rows(&pools, len);
        }
    }
    if selected("ceiling") {
        ceiling(&pools, *lens.iter().max().expect("a length"));
    }
}
