//! A public but hidden handle on the allocator, for `examples/simulate.rs`: the
//! allocator is pure logic on an explicit clock, so a program can drive the very code
//! the pools run with simulated workers and a simulated clock, at core and share
//! counts this machine does not have. Not part of the API: it may change without
//! notice. Each method is one call of the allocator (what the permits make under
//! their lock), with the same arguments.

use super::allocator::{Allocator, Config, WorkerId};
use super::entitlement::Scratch;
use super::error::ShareError;
use super::policy::SharePolicy;
use super::tree::ShareId;

/// A pool's core allocator on a simulated clock (hidden).
///
/// ```
/// use prorata::SharePolicy;
/// use prorata::shares_simulation::Simulator;
///
/// let mut sim = Simulator::new(2, SharePolicy::Stride, 4_000_000);
/// let a = sim.add_share(sim.root(), 300).unwrap();
/// let b = sim.add_share(sim.root(), 100).unwrap();
/// let (wa, wb) = (sim.add_worker(), sim.add_worker());
/// assert_eq!(sim.request(wa, a, 0), [wa]);
/// assert_eq!(sim.request(wb, b, 0), [wb]);
/// sim.release(wa, 1_000_000);
/// sim.check();
/// assert_eq!(sim.core_nanos(a), 1_000_000);
/// sim.refresh_parts();
/// assert!(sim.part(a) == 0.0 && sim.part(b) == 1.0);
/// ```
#[derive(Debug)]
pub struct Simulator {
    alloc: Allocator,
    /// The demand-capped entitlements of [`Simulator::refresh_parts`], computed
    /// beside the allocator's own (which they leave alone).
    parts: Scratch,
}

/// A share of a [`Simulator`] (hidden).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SimShare(ShareId);

/// A worker of a [`Simulator`] (hidden).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SimWorker(WorkerId);

impl SimShare {
    /// The share's slot (slots of retired shares are reused).
    pub fn slot(self) -> usize {
        self.0.index()
    }
}

impl SimWorker {
    /// The worker's index (ids of removed workers are reused).
    pub fn index(self) -> usize {
        self.0.index()
    }
}

fn workers(granted: Vec<WorkerId>) -> Vec<SimWorker> {
    granted.into_iter().map(SimWorker).collect()
}

impl Simulator {
    /// An allocator of `cores` permits, with the pool defaults but the policy and
    /// the quantum (the pool's own jobs weigh 100 tickets; charged by the clock
    /// passed to each call).
    pub fn new(cores: u32, policy: SharePolicy, quantum_nanos: u64) -> Self {
        let mut config = Config::new(cores);
        config.policy = policy;
        config.quantum_nanos = quantum_nanos;
        Simulator {
            alloc: Allocator::new(config),
            parts: Scratch::default(),
        }
    }

    /// The pool's own share.
    pub fn root(&self) -> SimShare {
        SimShare(self.alloc.root())
    }

    /// Adds a share of `tickets` in `parent`'s currency.
    pub fn add_share(&mut self, parent: SimShare, tickets: u32) -> Result<SimShare, ShareError> {
        self.alloc.add_share(parent.0, tickets).map(SimShare)
    }

    /// Changes a share's tickets.
    pub fn set_tickets(&mut self, share: SimShare, tickets: u32) -> Result<(), ShareError> {
        self.alloc.set_tickets(share.0, tickets)
    }

    /// The share's handle is dropped: it leaves once its workers want no core.
    pub fn retire(&mut self, share: SimShare) {
        self.alloc.retire(share.0)
    }

    /// Whether the share is still in the tree.
    pub fn is_live(&self, share: SimShare) -> bool {
        self.alloc.is_live(share.0)
    }

    /// A new worker (idle).
    pub fn add_worker(&mut self) -> SimWorker {
        SimWorker(self.alloc.add_worker())
    }

    /// Forgets an idle worker.
    pub fn remove_worker(&mut self, w: SimWorker) {
        self.alloc.remove_worker(w.0)
    }

    /// Idle worker `w` of `share` wants a core; returns the workers granted one.
    pub fn request(&mut self, w: SimWorker, share: SimShare, now: u64) -> Vec<SimWorker> {
        workers(self.alloc.request(w.0, share.0, now))
    }

    /// A waiting worker of `share` lets the policy decide at once; returns the
    /// holders asked to give their core back.
    pub fn contend(&mut self, share: SimShare, now: u64) -> Vec<SimWorker> {
        workers(self.alloc.contend(share.0, now))
    }

    /// Holder `w` gives its core back; returns the workers granted one.
    pub fn release(&mut self, w: SimWorker, now: u64) -> Vec<SimWorker> {
        workers(self.alloc.release(w.0, now))
    }

    /// Flagged holder `w` reached a safe point; returns the workers granted one.
    pub fn yield_core(&mut self, w: SimWorker, now: u64) -> Vec<SimWorker> {
        workers(self.alloc.yield_core(w.0, now))
    }

    /// How long the turn under way lasts: a driver ends the next quantum this
    /// long after this one, as the pool's timekeeper does (the quantum, or less
    /// when many shares compete).
    pub fn turn_nanos(&self) -> u64 {
        self.alloc.turn_nanos()
    }

    /// End of a quantum; returns the holders asked to give their core back.
    pub fn tick(&mut self, now: u64) -> Vec<SimWorker> {
        workers(self.alloc.tick(now))
    }

    /// A waiter's timeout: kept cores whose hold is over go to waiters.
    pub fn lapse(&mut self, now: u64) -> Vec<SimWorker> {
        workers(self.alloc.lapse(now))
    }

    /// When the next core kept for a share goes back to everyone (a waiter's
    /// timeout), if one is kept.
    pub fn next_lapse(&self) -> Option<u64> {
        self.alloc.next_lapse()
    }

    /// Whether `w` holds a core.
    pub fn is_holding(&self, w: SimWorker) -> bool {
        self.alloc.is_holding(w.0)
    }

    /// Whether `w` holds a core it was asked to give back.
    pub fn is_flagged(&self, w: SimWorker) -> bool {
        self.alloc.is_flagged(w.0)
    }

    /// Core time charged to the share so far (holders are charged when they give
    /// their core back and at every tick).
    pub fn core_nanos(&self, share: SimShare) -> u64 {
        self.alloc.stats(share.0).core_nanos
    }

    /// Core time the share's holders used since they were last charged.
    pub fn uncharged_nanos(&self, share: SimShare, now: u64) -> u64 {
        self.alloc.uncharged_nanos(share.0, now)
    }

    /// Computes every share's part of the cores now (the water-filled, demand-capped
    /// entitlements through the currencies), read with [`Simulator::part`]; leaves
    /// the allocator's own state alone.
    pub fn refresh_parts(&mut self) {
        self.alloc.entitlements_into(&mut self.parts);
    }

    /// Cores `share`'s own jobs were entitled to at the last
    /// [`Simulator::refresh_parts`] (0 if it wanted none).
    pub fn part(&self, share: SimShare) -> f64 {
        self.parts.out.get(share.0.index()).copied().unwrap_or(0.0)
    }

    /// Panics if an invariant of the allocator is broken.
    pub fn check(&self) {
        self.alloc.check()
    }
}
