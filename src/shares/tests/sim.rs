//! A deterministic simulation of a pool under the allocator: a virtual clock, P
//! cores, and shares whose workers want a given number of cores. Flagged workers
//! reach their safe point one step (a tenth of a quantum) after the flag is set.

use crate::shares::allocator::{Allocator, Config, WorkerId};
use crate::shares::policy::SharePolicy;
use crate::shares::rng::XorShift;
use crate::shares::tree::ShareId;

pub(crate) const QUANTUM: u64 = 4_000_000;
const STEP: u64 = QUANTUM / 10;

struct SimWorker {
    id: WorkerId,
    share: usize,
    /// Requested a core (holds or waits).
    busy: bool,
}

pub(crate) struct Sim {
    pub(crate) alloc: Allocator,
    pub(crate) now: u64,
    next_tick: u64,
    workers: Vec<SimWorker>,
    /// Share id and the number of cores its workers want.
    shares: Vec<(ShareId, u32)>,
    /// When set, a flagged worker reaches its safe point with probability 1/2 per
    /// step (a random latency), instead of after exactly one step.
    jitter: Option<XorShift>,
}

impl Sim {
    pub(crate) fn new(cores: u32, policy: SharePolicy) -> Self {
        let mut config = Config::new(cores);
        config.policy = policy;
        config.quantum_nanos = QUANTUM;
        Sim {
            alloc: Allocator::new(config),
            now: 0,
            next_tick: QUANTUM,
            workers: Vec::new(),
            shares: Vec::new(),
            jitter: None,
        }
    }

    /// Random safe-point latency (non-uniform quanta), seeded.
    pub(crate) fn with_jitter(mut self, seed: u64) -> Self {
        self.jitter = Some(XorShift::new(seed));
        self
    }

    /// Adds a share under `parent` (`None`: the pool) wanting `want` cores.
    pub(crate) fn add(&mut self, parent: Option<usize>, tickets: u32, want: u32) -> usize {
        let p = parent.map_or(self.alloc.root(), |i| self.shares[i].0);
        let id = self.alloc.add_share(p, tickets).expect("valid share");
        self.shares.push((id, want));
        self.shares.len() - 1
    }

    pub(crate) fn id(&self, share: usize) -> ShareId {
        self.shares[share].0
    }

    pub(crate) fn set_want(&mut self, share: usize, want: u32) {
        self.shares[share].1 = want;
    }

    pub(crate) fn set_tickets(&mut self, share: usize, tickets: u32) {
        self.alloc
            .set_tickets(self.shares[share].0, tickets)
            .unwrap();
    }

    /// Sets (`None`: removes) `share`'s ceiling on its cores now.
    pub(crate) fn set_ceiling(&mut self, share: usize, ceiling: Option<u32>) {
        self.alloc
            .set_ceiling(self.shares[share].0, ceiling, self.now)
            .unwrap();
        self.alloc.check();
    }

    /// Changes the pool's cores now.
    pub(crate) fn set_cores(&mut self, cores: u32) {
        self.alloc.set_cores(cores, self.now);
        self.alloc.check();
    }

    /// Core time of each share so far, in nanoseconds.
    pub(crate) fn core_times(&self) -> Vec<u64> {
        let alloc = &self.alloc;
        let stats = |s: &(ShareId, u32)| match alloc.is_live(s.0) {
            true => alloc.stats(s.0).core_nanos,
            false => 0,
        };
        self.shares.iter().map(stats).collect()
    }

    /// Cores currently held by the workers of `share`.
    pub(crate) fn holding(&self, share: usize) -> usize {
        let held = |w: &&SimWorker| w.share == share && self.alloc.is_holding(w.id);
        self.workers.iter().filter(held).count()
    }

    /// Runs `quanta` quanta; returns each share's fraction of the core time used.
    pub(crate) fn run(&mut self, quanta: u64) -> Vec<f64> {
        let before = self.core_times();
        for _ in 0..quanta * (QUANTUM / STEP) {
            self.step();
        }
        let after = self.core_times();
        let got: Vec<u64> = after
            .iter()
            .zip(&before)
            .map(|(a, b)| a.saturating_sub(*b))
            .collect();
        let total: u64 = got.iter().sum();
        got.iter()
            .map(|&g| g as f64 / total.max(1) as f64)
            .collect()
    }

    pub(crate) fn step(&mut self) {
        self.now += STEP;
        // Waiters wake up when a kept core lapses.
        self.alloc.lapse(self.now);
        let flagged: Vec<WorkerId> = self.workers.iter().map(|w| w.id).collect();
        for w in flagged {
            let late = self.jitter.as_mut().is_some_and(|r| r.next_u64() % 2 == 0);
            if self.alloc.is_flagged(w) && !late {
                self.alloc.yield_core(w, self.now);
            }
        }
        for s in 0..self.shares.len() {
            if self.alloc.is_live(self.shares[s].0) {
                self.adjust_demand(s);
            }
        }
        if self.now >= self.next_tick {
            self.alloc.tick(self.now);
            self.next_tick += QUANTUM;
        }
        self.alloc.check();
    }

    /// Makes the number of busy workers of `share` match what it wants.
    fn adjust_demand(&mut self, share: usize) {
        let (id, want) = self.shares[share];
        let busy = self
            .workers
            .iter()
            .filter(|w| w.share == share && w.busy)
            .count() as u32;
        for _ in busy..want {
            let w = self.idle_worker(share);
            self.workers[w].busy = true;
            let wid = self.workers[w].id;
            self.alloc.request(wid, id, self.now);
            if !self.alloc.is_holding(wid) {
                // As the permits do: a share that holds no core ends the quantum.
                self.alloc.contend(id, self.now);
            }
        }
        let mut extra = busy.saturating_sub(want);
        for w in 0..self.workers.len() {
            let sw = &self.workers[w];
            if extra > 0 && sw.share == share && sw.busy && self.alloc.is_holding(sw.id) {
                self.alloc.release(sw.id, self.now);
                self.workers[w].busy = false;
                extra -= 1;
            }
        }
    }

    fn idle_worker(&mut self, share: usize) -> usize {
        if let Some(i) = self
            .workers
            .iter()
            .position(|w| w.share == share && !w.busy)
        {
            return i;
        }
        let id = self.alloc.add_worker();
        self.workers.push(SimWorker {
            id,
            share,
            busy: false,
        });
        self.workers.len() - 1
    }
}

/// Asserts that each fraction is within `tol` of its target.
pub(crate) fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol,
            "share {i}: got {g:.4}, want {w:.4} ± {tol} (all: {got:?} vs {want:?})"
        );
    }
}

/// `tickets` normalised to fractions.
pub(crate) fn fractions(tickets: &[u32]) -> Vec<f64> {
    let total: u32 = tickets.iter().sum();
    tickets
        .iter()
        .map(|&t| f64::from(t) / f64::from(total))
        .collect()
}
