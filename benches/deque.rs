//! The worker deques alone: BWoS against crossbeam's Chase-Lev, both through the
//! interface the pool uses (`prorata::deque_bench`, whose kind is dispatched by a
//! `match` per call) and crossbeam's deque called directly (the cost of that match).
//!
//! - pairs: push+pop pairs on a deque that already holds `depth` older values (0: each
//!   pair starts from an empty deque, like a `join` at the top level; 8: like one deep
//!   in a recursion);
//! - burst: 1000 pushes, then 1000 pops;
//! - steal-heavy: the owner pushes two values and pops one, 1000 times, then pops
//!   what is left, while one thief steals without pause (the owner's time).
//!
//! The pairs also run on a floor: a stack for one thread whose top is an atomic in
//! memory, as every work-stealing deque's must be (thieves read it), with no check of
//! any kind. Its pair is a chain of two store-to-load forwardings of that top, which no
//! deque's owner path can beat.
//!
//! Run: `cargo bench --bench deque`. Quote ratios taken in one run.

#![allow(missing_docs)] // criterion_group! makes an undocumented function

use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use prorata::DequeKind;
use prorata::deque_bench::{Deque, Thief};

const OPS: u64 = 1000;

/// A deque as the benchmarks drive it.
trait Owner {
    type Thief: Take + Send;
    fn push(&self, v: u64);
    fn pop(&self) -> Option<u64>;
    fn thief(&self) -> Self::Thief;
}

/// A thieves' end.
trait Take {
    fn take(&self) -> Option<u64>;
}

impl Owner for crossbeam_deque::Worker<u64> {
    type Thief = crossbeam_deque::Stealer<u64>;
    fn push(&self, v: u64) {
        crossbeam_deque::Worker::push(self, v)
    }
    fn pop(&self) -> Option<u64> {
        crossbeam_deque::Worker::pop(self)
    }
    fn thief(&self) -> Self::Thief {
        self.stealer()
    }
}

impl Take for crossbeam_deque::Stealer<u64> {
    fn take(&self) -> Option<u64> {
        loop {
            match self.steal() {
                crossbeam_deque::Steal::Success(v) => return Some(v),
                crossbeam_deque::Steal::Empty => return None,
                crossbeam_deque::Steal::Retry => {}
            }
        }
    }
}

impl Owner for Deque<u64> {
    type Thief = Thief<u64>;
    fn push(&self, v: u64) {
        Deque::push(self, v)
    }
    fn pop(&self) -> Option<u64> {
        Deque::pop(self)
    }
    fn thief(&self) -> Self::Thief {
        Deque::thief(self)
    }
}

impl Take for Thief<u64> {
    fn take(&self) -> Option<u64> {
        self.steal()
    }
}

/// The floor of the owner path: a one-thread stack whose top is an atomic in memory
/// (Relaxed, as a deque owner's own loads and stores of its top are).
struct Floor {
    top: AtomicUsize,
    slots: Box<[Cell<u64>]>,
}

/// The floor has no thieves: `Bench::pairs` is all it runs.
struct NoThief;

impl Take for NoThief {
    fn take(&self) -> Option<u64> {
        None
    }
}

impl Owner for Floor {
    type Thief = NoThief;
    fn push(&self, v: u64) {
        Floor::push(self, v)
    }
    fn pop(&self) -> Option<u64> {
        Floor::pop(self)
    }
    fn thief(&self) -> NoThief {
        NoThief
    }
}

impl Floor {
    fn new() -> Self {
        Floor {
            top: AtomicUsize::new(0),
            slots: (0..1024).map(|_| Cell::new(0)).collect(),
        }
    }

    #[inline]
    fn push(&self, v: u64) {
        let top = self.top.load(Ordering::Relaxed);
        self.slots[top].set(v);
        self.top.store(top + 1, Ordering::Relaxed);
    }

    #[inline]
    fn pop(&self) -> Option<u64> {
        let top = self.top.load(Ordering::Relaxed).checked_sub(1)?;
        self.top.store(top, Ordering::Relaxed);
        Some(self.slots[top].get())
    }
}

/// The deques compared, by name.
fn each_deque(mut f: impl FnMut(&str, &dyn Fn() -> Box<dyn Bench>)) {
    f("crossbeam (direct)", &|| {
        Box::new(crossbeam_deque::Worker::<u64>::new_lifo())
    });
    f("chase-lev", &|| {
        Box::new(Deque::<u64>::new(DequeKind::ChaseLev))
    });
    f("bwos", &|| Box::new(Deque::<u64>::new(DequeKind::Bwos)));
}

/// The three workloads on one deque (object-safe, so `each_deque` can list them).
trait Bench {
    fn pairs(&self, depth: u64, rounds: u64) -> Duration;
    fn burst(&self, rounds: u64) -> Duration;
    fn steal_heavy(&self, rounds: u64) -> Duration;
}

impl<D: Owner> Bench for D {
    fn pairs(&self, depth: u64, rounds: u64) -> Duration {
        (0..depth).for_each(|i| self.push(i));
        let start = Instant::now();
        for _ in 0..rounds {
            for i in 0..OPS {
                self.push(black_box(i));
                black_box(self.pop());
            }
        }
        let time = start.elapsed();
        while self.pop().is_some() {}
        time
    }

    fn burst(&self, rounds: u64) -> Duration {
        let start = Instant::now();
        for _ in 0..rounds {
            (0..OPS).for_each(|i| self.push(black_box(i)));
            while black_box(self.pop()).is_some() {}
        }
        start.elapsed()
    }

    fn steal_heavy(&self, rounds: u64) -> Duration {
        let stop = &AtomicBool::new(false);
        let thief = self.thief();
        std::thread::scope(|s| {
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    black_box(thief.take());
                }
            });
            let start = Instant::now();
            for _ in 0..rounds {
                for i in 0..OPS {
                    self.push(black_box(i));
                    self.push(black_box(i));
                    black_box(self.pop());
                }
                while black_box(self.pop()).is_some() {}
            }
            let time = start.elapsed();
            stop.store(true, Ordering::Relaxed);
            time
        })
    }
}

fn bench_deques(c: &mut Criterion) {
    for depth in [0, 8] {
        let mut g = c.benchmark_group(format!("pairs, depth {depth}"));
        g.throughput(Throughput::Elements(2 * OPS));
        each_deque(|name, make| {
            let deque = make();
            g.bench_function(name, |b| b.iter_custom(|n| deque.pairs(depth, n)));
        });
        let floor = Floor::new();
        g.bench_function("floor (one-thread stack)", |b| {
            b.iter_custom(|n| Bench::pairs(&floor, depth, n))
        });
        g.finish();
    }
    let mut g = c.benchmark_group("burst of 1000");
    g.throughput(Throughput::Elements(2 * OPS));
    each_deque(|name, make| {
        let deque = make();
        g.bench_function(name, |b| b.iter_custom(|n| deque.burst(n)));
    });
    g.finish();
    let mut g = c.benchmark_group("steal-heavy, one thief");
    g.throughput(Throughput::Elements(3 * OPS));
    each_deque(|name, make| {
        let deque = make();
        g.bench_function(name, |b| b.iter_custom(|n| deque.steal_heavy(n)));
    });
    g.finish();
}

criterion::criterion_group!(benches, bench_deques);
criterion::criterion_main!(benches);
