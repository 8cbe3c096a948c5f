//! Random sequences of every allocator operation, with the invariants checked after
//! each: no permit lost or duplicated, no core idle while a worker waits, demands
//! in step with the workers.

use crate::shares::allocator::{Allocator, Config, WorkerId};
use crate::shares::policy::SharePolicy;
use crate::shares::rng::XorShift;
use crate::shares::tree::ShareId;

struct Fuzz {
    alloc: Allocator,
    rng: XorShift,
    now: u64,
    shares: Vec<ShareId>,
    /// Each worker and the share it asked a core for, if any.
    workers: Vec<(WorkerId, Option<ShareId>)>,
    lends: Vec<(ShareId, ShareId)>,
}

impl Fuzz {
    fn pick<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        (!v.is_empty()).then(|| v[self.rng.next_u64() as usize % v.len()])
    }

    fn step(&mut self) {
        // Steps shorter and longer than a hold (400 µs) and a quantum (4 ms).
        let scale = if self.rng.next_u64() % 2 == 0 {
            300_000
        } else {
            3_000_000
        };
        self.now += self.rng.next_u64() % scale;
        self.act();
    }

    /// One random operation at the current time, with the invariants checked.
    fn act(&mut self) {
        match self.rng.next_u64() % 12 {
            0 => self.add_share(),
            1 => self.request(),
            2 | 3 => self.release(),
            4 => self.yield_flagged(),
            5 => {
                self.alloc.tick(self.now);
            }
            6 => self.set_tickets(),
            7 => self.lend(),
            8 => self.retire(),
            9 => self.anticipate(),
            10 => {
                if let Some(s) = self.pick(&self.live_shares()) {
                    self.alloc.contend(s, self.now);
                }
            }
            _ => {
                self.alloc.lapse(self.now);
            }
        }
        self.alloc.check();
    }

    fn live_shares(&self) -> Vec<ShareId> {
        let live = self
            .shares
            .iter()
            .copied()
            .filter(|&s| self.alloc.is_live(s));
        live.collect()
    }

    fn add_share(&mut self) {
        let mut parents = self.live_shares();
        parents.push(self.alloc.root());
        let parent = self.pick(&parents).unwrap();
        let tickets = (self.rng.next_u64() % 500) as u32 + 1;
        if let Ok(id) = self.alloc.add_share(parent, tickets) {
            self.shares.push(id);
        }
    }

    fn request(&mut self) {
        let mut live = self.live_shares();
        live.push(self.alloc.root());
        let share = self.pick(&live).unwrap();
        // Retiring shares may still get requests from their remaining workers only.
        let idle: Vec<usize> = (0..self.workers.len())
            .filter(|&i| self.workers[i].1.is_none())
            .collect();
        let w = match self.pick(&idle) {
            Some(i) => i,
            None if self.workers.len() < 12 => {
                self.workers.push((self.alloc.add_worker(), None));
                self.workers.len() - 1
            }
            None => return,
        };
        self.workers[w].1 = Some(share);
        self.alloc.request(self.workers[w].0, share, self.now);
    }

    fn holders(&self) -> Vec<usize> {
        let holding = |&i: &usize| self.alloc.is_holding(self.workers[i].0);
        (0..self.workers.len()).filter(holding).collect()
    }

    fn release(&mut self) {
        if let Some(i) = self.pick(&self.holders()) {
            self.alloc.release(self.workers[i].0, self.now);
            self.workers[i].1 = None;
        }
    }

    fn yield_flagged(&mut self) {
        for i in self.holders() {
            if self.alloc.is_flagged(self.workers[i].0) {
                self.alloc.yield_core(self.workers[i].0, self.now);
            }
        }
    }

    /// Workers of a share woken for published work, announced before they ask.
    fn anticipate(&mut self) {
        let mut live = self.live_shares();
        live.push(self.alloc.root());
        let share = self.pick(&live).unwrap();
        let n = (self.rng.next_u64() % 3) as u32 + 1;
        self.alloc.anticipate(share, n, self.now);
    }

    fn set_tickets(&mut self) {
        if let Some(s) = self.pick(&self.live_shares()) {
            let t = (self.rng.next_u64() % 1000) as u32;
            let _ = self.alloc.set_tickets(s, t);
        }
    }

    fn lend(&mut self) {
        if self.rng.next_u64() % 2 == 0 {
            if let Some((from, to)) = self.lends.pop() {
                self.alloc.end_lend(from, to);
            }
            return;
        }
        let live = self.live_shares();
        if let (Some(from), Some(to)) = (self.pick(&live), self.pick(&live)) {
            if from != to {
                self.alloc.lend(from, to);
                self.lends.push((from, to));
            }
        }
    }

    fn retire(&mut self) {
        let lent: Vec<ShareId> = self.lends.iter().flat_map(|&(a, b)| [a, b]).collect();
        let candidates: Vec<ShareId> = self
            .live_shares()
            .into_iter()
            .filter(|s| !lent.contains(s))
            .collect();
        if let Some(s) = self.pick(&candidates) {
            self.alloc.retire(s);
            self.shares.retain(|&x| x != s || self.alloc.is_live(s));
        }
    }
}

fn fuzz(seed: u64, policy: SharePolicy) -> Fuzz {
    let mut config = Config::new((seed % 4) as u32 + 1);
    config.policy = policy;
    config.seed = seed;
    Fuzz {
        alloc: Allocator::new(config),
        rng: XorShift::new(seed),
        now: 0,
        shares: Vec::new(),
        workers: Vec::new(),
        lends: Vec::new(),
    }
}

#[test]
fn random_operations_keep_the_invariants() {
    for seed in 1..=40u64 {
        for policy in [SharePolicy::Stride, SharePolicy::Lottery] {
            let mut f = fuzz(seed, policy);
            for _ in 0..400 {
                f.step();
            }
            // Every worker can leave: all permits come back.
            while let Some(&i) = f.holders().first() {
                f.alloc.release(f.workers[i].0, f.now);
                f.workers[i].1 = None;
            }
            f.alloc.check();
        }
    }
}

/// What the allocator decided so far: who holds a core, who is asked to give it
/// back, and every pass of the ledger (bit for bit).
fn decisions(f: &Fuzz) -> Vec<u64> {
    let mut d = Vec::new();
    for &(w, _) in &f.workers {
        d.push(u64::from(f.alloc.is_holding(w)) + 2 * u64::from(f.alloc.is_flagged(w)));
    }
    let ledger = f.alloc.ledger();
    d.push(ledger.global().to_bits());
    d.extend((0..ledger.slots()).map(|s| ledger.pass(s).to_bits()));
    d
}

/// The ledger applies its bound lazily (the passes below it are raised when read
/// or charged, the most indebted share is kept as a running extreme). Raising
/// every pass and measuring the extremes from scratch before every operation
/// must change no decision. (The sets of shares and workers the allocator keeps
/// are compared with a pass over every share by `check` after each operation.)
#[test]
fn lazy_bounds_decide_as_passes_over_every_share() {
    for seed in 1..=40u64 {
        for policy in [
            SharePolicy::Stride,
            SharePolicy::Lottery,
            SharePolicy::MultiWinnerLottery,
        ] {
            let (mut lazy, mut eager) = (fuzz(seed, policy), fuzz(seed, policy));
            for step in 0..400 {
                lazy.step();
                eager.alloc.forget_extremes();
                eager.step();
                assert_eq!(
                    decisions(&lazy),
                    decisions(&eager),
                    "seed {seed}, {policy:?}, step {step}"
                );
            }
        }
    }
}

/// A settle charges every holder in one tight loop, leaving the rows and the most
/// indebted share to one update per share charged. Charging the holders one by
/// one instead, each with the ledger's whole update, must change no decision, no
/// pass, no global pass and no share's core time, bit for bit, and so must
/// skipping the settles at the time of the last one (with up to 12
/// cores, one per worker of the fuzz, so that shares hold several cores and
/// many holders are charged at once).
#[test]
fn settling_every_holder_at_once_charges_as_one_by_one() {
    for seed in 1..=40u64 {
        for policy in [SharePolicy::Stride, SharePolicy::Lottery] {
            let cores = [2, 5, 12][seed as usize % 3];
            let start = |seed| {
                let mut f = fuzz(seed, policy);
                let mut config = Config::new(cores);
                config.policy = policy;
                config.seed = seed;
                f.alloc = Allocator::new(config);
                f
            };
            let (mut fast, mut each) = (start(seed), start(seed));
            each.alloc.settle_one_by_one();
            for step in 0..600 {
                // A third of the operations come at the same time as the one
                // before (as several decisions do in a pool), when a settle
                // charges nothing.
                if step % 3 == 0 {
                    fast.act();
                    each.act();
                } else {
                    fast.step();
                    each.step();
                }
                let charged = |f: &Fuzz| {
                    let stats = f.shares.iter().filter(|&&s| f.alloc.is_live(s));
                    stats
                        .map(|&s| f.alloc.stats(s).core_nanos)
                        .collect::<Vec<_>>()
                };
                assert_eq!(
                    (decisions(&fast), charged(&fast)),
                    (decisions(&each), charged(&each)),
                    "seed {seed}, {policy:?}, step {step}"
                );
            }
        }
    }
}
