//! The stride policy's table of waiting shares, driven directly with random
//! entitlements, charges, bounds and waiters: after every operation it must hold
//! a row for every waiting share equal to one computed from scratch, and pick the
//! share a look at every share's ledger entry picks.

use crate::shares::allocator::View;
use crate::shares::rng::XorShift;
use crate::shares::stride::Stride;

struct Run {
    stride: Stride,
    rng: XorShift,
    ticket_ent: Vec<f64>,
    waiting: Vec<u32>,
    holders: Vec<u32>,
    waiters: Vec<usize>,
    holding: Vec<usize>,
    zeros: Vec<u32>,
    in_flight: u32,
    slots: usize,
}

impl Run {
    fn new(seed: u64, slots: usize) -> Run {
        // A short memory, so that the bound raises passes often.
        let mut stride = Stride::policy(0.5 + (seed % 3) as f64);
        stride.resize(slots);
        Run {
            stride,
            rng: XorShift::new(seed),
            ticket_ent: vec![0.0; slots],
            waiting: vec![0; slots],
            holders: vec![0; slots],
            waiters: Vec::new(),
            holding: Vec::new(),
            zeros: vec![0; slots],
            in_flight: 0,
            slots,
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n
    }

    fn view(&self) -> View<'_> {
        View {
            ticket_ent: &self.ticket_ent,
            capped_ent: &self.ticket_ent,
            in_use: 0.0,
            demand: &self.zeros,
            waiting: &self.waiting,
            holders: &self.holders,
            in_flight: self.in_flight,
            waiters: &self.waiters,
            holding: &self.holding,
        }
    }

    /// What a look at every waiting share picks.
    fn scan(&self) -> Option<usize> {
        let v = self.view();
        let d = |s: usize| {
            self.stride.standing_for_tests(s)
                + f64::from(v.holders[s] + 1) / v.ticket_ent[s].max(f64::MIN_POSITIVE)
        };
        let mut first: Option<(f64, usize)> = None;
        for s in v.waiting_slots() {
            if first.is_none_or(|(k, f)| d(s).total_cmp(&k).then(s.cmp(&f)).is_lt()) {
                first = Some((d(s), s));
            }
        }
        first.map(|(_, s)| s)
    }

    fn step(&mut self) {
        match self.below(7) {
            0 => {
                // New entitlements: some kept bit for bit (their passes are only
                // rescaled, by o / o), some gone, some new.
                let old = self.ticket_ent.clone();
                let rng = &mut self.rng;
                self.ticket_ent = (old.iter())
                    .map(|&o| match rng.next_u64() % 4 {
                        0 => 0.0,
                        1 => 0.01 + 8.0 * rng.next_f64(),
                        _ => o,
                    })
                    .collect();
                self.stride.retune_all(&old, &self.ticket_ent);
            }
            1 | 2 => {
                let s = self.below(self.slots as u64) as usize;
                self.waiting[s] = self.below(3) as u32;
                self.holders[s] = self.below(4) as u32;
                let next = if self.waiting[s] > 0 {
                    self.holders[s] + 1
                } else {
                    0
                };
                self.stride.set_waiting(s, next);
                self.waiters = self.view().waiting_slots().collect();
                self.holding = self.view().holding_slots().collect();
            }
            3 | 4 => {
                let s = self.below(self.slots as u64) as usize;
                let total = self.ticket_ent.iter().sum();
                let quanta = 3.0 * self.rng.next_f64();
                self.stride.charge(s, quanta, self.ticket_ent[s], total);
            }
            5 => {
                // A preemption, at the end of a quantum or with cores on their
                // way: the walk of the table moves the cores a heap of every
                // waiter moves.
                self.in_flight = if self.below(2) == 0 {
                    0
                } else {
                    self.below(4) as u32
                };
                // The policy out of `self` while the view borrows the rest.
                let mut stride = std::mem::take(&mut self.stride);
                let walked = stride.preempt(&self.view());
                assert_eq!(walked, stride.preempt_by_heaps(&self.view()), "preempt");
                self.stride = stride;
                self.in_flight = 0;
            }
            _ => {
                assert_eq!(self.stride.pick(&self.view()), self.scan(), "pick");
                let s = self.below(self.slots as u64) as usize;
                let view = self.view();
                let mine = self.stride.standing_for_tests(s)
                    + f64::from(view.holders[s] + 1) / view.ticket_ent[s].max(f64::MIN_POSITIVE);
                let each = |w: usize| {
                    mine <= self.stride.standing_for_tests(w)
                        + f64::from(view.holders[w] + 1) / view.ticket_ent[w].max(f64::MIN_POSITIVE)
                        + 1e-9
                };
                assert_eq!(
                    self.stride.due(&view, s),
                    view.waiting_slots().all(each),
                    "due"
                );
            }
        }
        self.stride.check_table(&self.view());
    }
}

#[test]
fn the_waiter_table_picks_as_a_look_at_every_ledger_entry() {
    for seed in 1..=200u64 {
        // Few slots, and enough for a heap of several levels.
        let mut run = Run::new(seed, if seed % 2 == 0 { 9 } else { 40 });
        for _ in 0..500 {
            run.step();
        }
    }
}
