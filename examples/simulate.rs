//! The shares allocator at 8 to 256 cores and up to 10,000 shares, in simulation.
//!
//! The allocator that divides a pool's cores among its shares is pure logic on an
//! explicit clock; this program drives that very code (through the hidden
//! `prorata::shares_simulation` handle) with simulated workers on a simulated clock,
//! so that machines with many more cores than this one can be tried. Each
//! configuration is a number of cores and of shares, under one of four workloads:
//!
//! * `flat`: every share always wants a fixed number of cores (together about three
//!   times the pool), tickets drawn log-uniformly from 1 to 1,000, every share in the
//!   pool's own currency;
//! * `steady`: the same, the shares spread over nested currencies (about √N tenants,
//!   each a currency holding its queries);
//! * `server`: a query server. Shares (queries) arrive and leave (each lives about
//!   2 s; one that leaves is replaced at once, in a random tenant, with new tickets),
//!   and each alternates bursts (about 200 ms, wanting from one core to a large part
//!   of the pool, most wanting few) with idle gaps (about 100 ms);
//! * `request`: a server that makes a share per request (not in the default list).
//!   Requests arrive as a Poisson process, each in a random tenant (√N of them, as
//!   in `server`) with tickets log-uniform from 1 to 1,000, at the rate that keeps
//!   `--shares` of them alive on average. Each lives a time log-uniform from 2 ms
//!   to 1 s (160 ms on average) and wants its cores all its life, whatever it
//!   gets: one core, or a few more (the mean 3 P / N cores when that is more than
//!   one, skewed: most want one, few many), together about three times the pool of
//!   P cores. When its time is up its workers give their cores back or leave the
//!   queue, and its share is dropped (retired). The run starts with the requests
//!   that would still be alive had they arrived over the second before, with what
//!   is left of their lives: as many are alive from the start as later.
//!
//! The simulated time goes in steps of 100 µs: a worker asked to give its core back
//! reaches its safe point at the next step (a parallel iterator's leaves pass one
//! about every 100 µs), quanta are 4 ms (the pool default), and the allocator is
//! called as the pool's permits call it (a worker that waits contends at once, a
//! waiter's timeout lets a kept core lapse, waiters end quanta).
//!
//! Printed per configuration, after a simulated second of warm-up:
//! * `pts`: the worst error of a share over a one-second window, in points of the
//!   pool's cores: `100 x |got - part| / (cores x 1 s)`, where `got` is the core time
//!   its workers held and `part` the integral of its entitlement (the water-filled,
//!   demand-capped part of the cores its tickets are worth through the currencies).
//!   The shares counted are those there at the window's end, over the part of the
//!   window they were there; in `request`, each request (those that ended within
//!   the window, counted at their end, too: a request's window is the part of the
//!   window it lived) and each tenant, its requests together, over the whole
//!   window;
//! * `rel`: the worst `|got - part| / part` among the windows above where a share
//!   was entitled to one core-second or more (`n` such windows);
//! * `wait p50/p99/max`: hand-over latency, the simulated time from a worker's request
//!   to its grant, for requests made while its share held fewer cores than its part
//!   (in `request`, a worker still waiting when its request ends counts the wait
//!   until then);
//! * `first p50/p99/max`: the first core of a burst (`server`), the simulated time
//!   from the start of a query's burst to its first grant, for the bursts of shares
//!   entitled to a core or more (a burst that ends first counts its whole length);
//!   in `request`, from a request's creation to its first grant, for every request
//!   (a request that ends first counts its whole life);
//! * `dec/s`: allocator decisions (calls made under the permits' lock) per simulated
//!   second;
//! * `ns/dec` and `p99 µs`: the real time of one decision on this machine, mean and
//!   99th percentile (the worst is the machine's: a call preempted by the OS);
//!   `lock`: `dec/s x ns/dec`, the fraction of one core the lock would be held at
//!   this machine's speed (past 1, it saturates).
//!
//! ```text
//! cargo run --release --example simulate -- [--seconds S] [--warm-up S]
//!     [--cores 8,64,256] [--shares 10,100,1000,10000]
//!     [--workload flat,steady,server,request] [--policy stride,lottery,multi]
//!     [--digest on] [--calls on] [--seed N | --seeds N]
//! ```
//!
//! `--seconds` is the simulated time of each configuration (5 s unless given),
//! `--warm-up` the part of it that is not measured (1 s unless given); both may be
//! fractions, for short runs (`ci/simulate_instructions.sh` counts the instructions of
//! the decisions of the measured part under callgrind: see its header). Only whole
//! one-second windows are judged (`pts`, `rel`), and the requests that end within a
//! measured part. The default configurations are 8, 64 and 256 cores, 10, 100 and
//! 1,000 shares, `flat`, `steady` and `server`, stride.
//!
//! `--seed N` draws another simulation of the same workloads (tickets, demands,
//! arrivals): the `server` figures move with it, so compare policies over several
//! seeds. Without it (or with 0), every run simulates the same thing. `--seeds N`
//! runs each configuration with seeds 1 to `N` and prints, per configuration, the
//! median over the runs of the worst error in points (and its worst run), the
//! worst relative error of any run, the hand-over's 99th percentile (median) and
//! longest wait (worst run), the first core's median and 99th percentile, and the
//! decisions per second (medians).
//!
//! With `--digest on`, each line ends with a hash of every decision the allocator
//! made (the workers each call granted a core or asked to give theirs back) and of
//! every share's part at every step, and the number of decisions (warm-up
//! included): two versions of the allocator that print the same digests made the
//! same decisions. With `--calls on`, a line says how many decisions of each kind
//! (the allocator's call) were made per measured second, and their mean real time.
//!
//! A run of 10,000 shares takes 7 to 10 seconds of this machine per simulated
//! second with the stride policy (`--seconds 2`: 15 to 19 s); the lotteries'
//! decisions cost 0.1 to 1 ms each at that size (0.12 s took one to two minutes).
//! About half of the time goes to the parts, computed from scratch (the
//! water-filling of every share) at every step.

use std::time::Instant;

use prorata::SharePolicy;
use prorata::shares_simulation::{SimShare, SimWorker, Simulator};

const QUANTUM: u64 = 4_000_000;
const STEP: u64 = 100_000;
const SECOND: u64 = 1_000_000_000;

/// xorshift64*: a seeded generator, so that every run simulates the same thing.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Exponentially distributed with the given mean (nanoseconds).
    fn exp(&mut self, mean: u64) -> u64 {
        (-(1.0 - self.unit()).ln() * mean as f64) as u64 + STEP
    }

    /// The time to the next arrival of a Poisson process of mean gap `gap`
    /// (nanoseconds, fractions carried in the float).
    fn gap(&mut self, gap: f64) -> f64 {
        -(1.0 - self.unit()).ln() * gap
    }

    /// Log-uniform from `low` to `high`.
    fn log_uniform(&mut self, low: f64, high: f64) -> f64 {
        low * (high / low).powf(self.unit())
    }

    /// Log-uniform from 1 to 1,000: most shares hold few tickets, a few hold many.
    fn tickets(&mut self) -> u32 {
        10f64.powf(3.0 * self.unit()) as u32
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Workload {
    /// Steady demands, every share directly in the pool's currency.
    Flat,
    Steady,
    Server,
    /// A share per request: created at a rate, dropped when done.
    Request,
}

/// `request`: the shortest and the longest life of a request (log-uniform).
const SHORTEST_REQUEST: f64 = 2e6;
const LONGEST_REQUEST: f64 = 1e9;

struct Worker {
    id: SimWorker,
    /// Asked for a core (holds or waits).
    busy: bool,
    /// Holds a core (what the allocator's calls returned: see `note_holding`).
    holds: bool,
    /// When it asked, if it waits, and whether its share was below its part then.
    waiting: Option<(u64, bool)>,
}

struct Query {
    share: SimShare,
    workers: Vec<Worker>,
    /// Its workers that asked for a core (hold or wait), and those that hold one.
    busy: u32,
    holding: u32,
    /// Cores wanted now, and the most it wants in a burst.
    want: u32,
    burst: u32,
    /// When it next starts or ends a burst, and when it leaves.
    next_change: u64,
    leaves_at: u64,
    /// Left: wants nothing, retired, waits for its last workers to go.
    left: bool,
    /// This window: core time held, and the integral of its part.
    got: u64,
    part: f64,
    /// When its burst under way started, until it got its first core.
    burst_from: Option<u64>,
    /// The parts' refreshes before it was created (until the next, its part is
    /// 0: its slot may be that of a share gone since), and its tenant's index.
    born: u64,
    tenant: usize,
}

#[derive(Clone, Copy)]
struct Config {
    cores: u32,
    shares: usize,
    workload: Workload,
    policy: SharePolicy,
    /// Simulated seconds, the warm-up's included, and the warm-up's.
    seconds: f64,
    warm_up: f64,
    /// Mixed into the generator's seed (0: the runs of the docs' tables).
    seed: u64,
    /// Whether to hash the decisions and parts (`--digest on`), and to print
    /// the decisions of each kind (`--calls on`).
    digest: bool,
    calls: bool,
}

struct Sim {
    cfg: Config,
    alloc: Simulator,
    rng: Rng,
    now: u64,
    tenants: Vec<SimShare>,
    /// `request`: each tenant's core time and part integral this window (its
    /// requests together), and when the next request arrives.
    tenant_got: Vec<u64>,
    tenant_part: Vec<f64>,
    next_arrival: f64,
    /// How many times the parts were computed.
    refreshes: u64,
    queries: Vec<Query>,
    /// Which query and worker a worker id belongs to.
    owner: Vec<(usize, usize)>,
    /// The holders asked to give their core back since the last step's safe
    /// points (what `contend` and `tick` returned): only the allocator's calls
    /// that preempt flag a holder.
    flagged: Vec<SimWorker>,
    /// Real nanoseconds of each decision; the decisions of each kind (`Call`)
    /// and their real nanoseconds.
    costs: Vec<u32>,
    calls: [u64; CALLS.len()],
    call_nanos: [u64; CALLS.len()],
    timer_overhead: f64,
    waits: Vec<u64>,
    /// The wait of each burst for its first core, of the shares entitled to a
    /// core or more then, or of each request (measured part only).
    firsts: Vec<u64>,
    /// Worst error over the windows: points, relative (and how many windows counted).
    worst_points: f64,
    worst_rel: f64,
    rel_windows: usize,
    measuring: bool,
    /// Every decision and part so far (see `--digest`).
    digest: Digest,
    /// Decisions so far, warm-up included.
    decisions: u64,
}

/// Times one allocator call, and adds what it returned to the digest. After the
/// warm-up the call is made within `measured`.
macro_rules! timed {
    ($sim:expr, $kind:expr, $call:expr) => {{
        let t = Instant::now();
        let r = if $sim.measuring {
            measured(|| $call)
        } else {
            $call
        };
        let dt = t.elapsed().as_nanos() as u32;
        $sim.costs.push(dt);
        $sim.calls[$kind as usize] += 1;
        $sim.call_nanos[$kind as usize] += u64::from(dt);
        if $sim.cfg.digest {
            Decision::digest(&r, &mut $sim.digest);
        }
        $sim.decisions += 1;
        r
    }};
}

/// The allocator's calls that are decisions (see `--calls`).
#[derive(Clone, Copy)]
enum Call {
    Request,
    Contend,
    Release,
    YieldCore,
    Tick,
    Lapse,
    Retire,
}

const CALLS: [&str; 7] = [
    "request",
    "contend",
    "release",
    "yield_core",
    "tick",
    "lapse",
    "retire",
];

/// Makes a decision of the measured part: `ci/simulate_instructions.sh` counts
/// the instructions within this function (`--toggle-collect`).
#[inline(never)]
fn measured<R>(call: impl FnOnce() -> R) -> R {
    call()
}

/// What an allocator call returned, as it enters the digest.
trait Decision {
    fn digest(&self, digest: &mut Digest);
}

impl Decision for () {
    fn digest(&self, digest: &mut Digest) {
        digest.add(u64::MAX);
    }
}

impl Decision for Vec<SimWorker> {
    fn digest(&self, digest: &mut Digest) {
        digest.add(self.len() as u64);
        for w in self {
            digest.add(w.index() as u64);
        }
    }
}

/// FNV-1a over 64-bit words: a hash of a run's decisions.
struct Digest(u64);

impl Digest {
    fn add(&mut self, word: u64) {
        for byte in word.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
}

impl Sim {
    fn new(cfg: Config) -> Sim {
        let mut alloc = Simulator::new(cfg.cores, cfg.policy, QUANTUM);
        let mut rng =
            Rng(0x5EED_1234 ^ (cfg.cores as u64) << 20 ^ cfg.shares as u64 ^ cfg.seed << 40);
        // Tenants: currencies holding the queries (about the square root of them).
        let n_tenants = match cfg.workload {
            Workload::Flat => 0,
            _ => (cfg.shares as f64).sqrt().ceil() as usize,
        };
        let tenants = (0..n_tenants)
            .map(|_| alloc.add_share(alloc.root(), rng.tickets()).unwrap())
            .collect();
        let mut sim = Sim {
            cfg,
            alloc,
            rng,
            now: 0,
            tenants,
            tenant_got: vec![0; n_tenants],
            tenant_part: vec![0.0; n_tenants],
            next_arrival: 0.0,
            refreshes: 0,
            queries: Vec::new(),
            owner: Vec::new(),
            flagged: Vec::new(),
            costs: Vec::new(),
            calls: [0; CALLS.len()],
            call_nanos: [0; CALLS.len()],
            timer_overhead: timer_overhead(),
            waits: Vec::new(),
            firsts: Vec::new(),
            worst_points: 0.0,
            worst_rel: 0.0,
            rel_windows: 0,
            measuring: false,
            digest: Digest(0xCBF2_9CE4_8422_2325),
            decisions: 0,
        };
        if cfg.workload == Workload::Request {
            // Those alive at time 0 are those that arrived in the longest life
            // before it and live on, with what is left of their lives: as many,
            // as long, as at any later time.
            let gap = sim.request_gap();
            let mut age = sim.rng.gap(gap);
            while age < LONGEST_REQUEST {
                sim.arrive_request(age);
                age += sim.rng.gap(gap);
            }
            sim.next_arrival = sim.rng.gap(gap);
        } else {
            for _ in 0..sim.cfg.shares {
                sim.arrive();
            }
        }
        sim
    }

    /// `request`: the mean time between two requests, for `--shares` of them alive
    /// on average (their mean life over it, Little's law).
    fn request_gap(&self) -> f64 {
        let (low, high) = (SHORTEST_REQUEST, LONGEST_REQUEST);
        let mean_life = (high - low) / (high / low).ln();
        mean_life / self.cfg.shares as f64
    }

    /// A new query (or request) in a random tenant.
    fn arrive(&mut self) {
        let (tenant, index) = match self.tenants.len() {
            0 => (self.alloc.root(), usize::MAX),
            n => {
                let i = (self.rng.next() % n as u64) as usize;
                (self.tenants[i], i)
            }
        };
        let tickets = self.rng.tickets();
        let share = self.alloc.add_share(tenant, tickets).unwrap();
        // Together the shares want about three times the pool: the mean burst is
        // 4.5 P / N cores (two thirds of the time in a burst; a request wants its
        // cores all its life, 3 P / N), skewed (most want few).
        let (p, n) = (f64::from(self.cfg.cores), self.cfg.shares as f64);
        let times = match self.cfg.workload {
            Workload::Request => 3.0,
            _ => 4.5,
        };
        let mean = (times * p / n).max(1.0);
        let most = (3.0 * (mean - 1.0)).min(p - 1.0);
        let u = self.rng.unit();
        let burst = 1 + (most * u * u) as u32;
        let (next_change, leaves_at) = match self.cfg.workload {
            Workload::Flat | Workload::Steady => (u64::MAX, u64::MAX),
            Workload::Server => (
                self.now + self.rng.exp(200_000_000),
                self.now + self.rng.exp(2 * SECOND),
            ),
            // Its end is set by `arrive_request`.
            Workload::Request => (u64::MAX, u64::MAX),
        };
        self.queries.push(Query {
            share,
            workers: Vec::new(),
            busy: 0,
            holding: 0,
            want: burst,
            burst,
            next_change,
            leaves_at,
            left: false,
            got: 0,
            part: 0.0,
            burst_from: Some(self.now),
            born: self.refreshes,
            tenant: index,
        });
    }

    /// `request`: a request that arrived `age` ago (nanoseconds) is still there if
    /// it lives longer.
    fn arrive_request(&mut self, age: f64) {
        let life = self.rng.log_uniform(SHORTEST_REQUEST, LONGEST_REQUEST);
        if life > age {
            self.arrive();
            let request = self.queries.last_mut().expect("just arrived");
            request.leaves_at = self.now + (life - age) as u64;
        }
    }

    fn run(&mut self) {
        let end = (self.cfg.seconds * SECOND as f64).round() as u64;
        let mut next_tick = QUANTUM;
        let mut window_end = (self.cfg.warm_up * SECOND as f64).round() as u64;
        self.refresh_parts();
        while self.now < end {
            self.step(&mut next_tick);
            if self.now >= window_end {
                self.close_window();
                window_end += SECOND;
                if !self.measuring {
                    // After the warm-up.
                    self.measuring = true;
                    self.costs.clear();
                    self.calls = [0; CALLS.len()];
                    self.call_nanos = [0; CALLS.len()];
                    self.waits.clear();
                    self.firsts.clear();
                }
            }
        }
    }

    fn step(&mut self, next_tick: &mut u64) {
        let now = self.now;
        // A waiter's timeout: a core kept for a share lapses.
        if self.alloc.next_lapse().is_some_and(|t| t <= now) {
            let granted = timed!(self, Call::Lapse, self.alloc.lapse(now));
            self.granted(granted);
        }
        // Flagged holders reach their safe point, in the order of the queries and
        // of their workers.
        let mut flagged = std::mem::take(&mut self.flagged);
        let mut at: Vec<(usize, usize)> = (flagged.iter())
            .map(|w| self.owner[w.index()])
            .filter(|&(q, _)| q != usize::MAX)
            .collect();
        at.sort_unstable();
        at.dedup();
        for (q, i) in at {
            let id = self.queries[q].workers[i].id;
            if self.alloc.is_flagged(id) {
                let granted = timed!(self, Call::YieldCore, self.alloc.yield_core(id, now));
                let holds = self.alloc.is_holding(id);
                self.note_holding(id, holds);
                if !holds {
                    let due = self.below_part(q);
                    self.queries[q].workers[i].waiting = Some((now, due));
                }
                self.granted(granted);
            }
        }
        flagged.clear();
        self.flagged = flagged;
        // Bursts start and end; queries leave and arrive.
        for q in 0..self.queries.len() {
            let query = &mut self.queries[q];
            if query.left {
                continue;
            }
            if now >= query.leaves_at && self.cfg.workload == Workload::Request {
                self.finish(q);
            } else if now >= query.leaves_at {
                query.left = true;
                query.want = 0;
                timed!(self, Call::Retire, self.alloc.retire(self.queries[q].share));
                self.arrive();
            } else if now >= query.next_change {
                let on = query.want == 0;
                query.want = if on { query.burst } else { 0 };
                // A burst that ends before its first core waited all of it.
                let unserved = std::mem::replace(&mut query.burst_from, on.then_some(now));
                let entitled = self.part(q) >= 1.0;
                if let Some(t) = unserved.filter(|_| self.measuring && !on && entitled) {
                    self.firsts.push(now - t);
                }
                let mean = if on { 200_000_000 } else { 100_000_000 };
                self.queries[q].next_change = now + self.rng.exp(mean);
            }
        }
        if self.cfg.workload == Workload::Request {
            let gap = self.request_gap();
            while self.next_arrival <= now as f64 {
                self.arrive_request(0.0);
                self.next_arrival += self.rng.gap(gap);
            }
        }
        for q in 0..self.queries.len() {
            self.adjust(q);
        }
        if now >= *next_tick {
            let flagged = timed!(self, Call::Tick, self.alloc.tick(now));
            self.flagged.extend(flagged);
            // The next quantum ends a turn from now (shorter than the quantum
            // when many shares compete), as the pool's timekeeper ends them.
            *next_tick += self.alloc.turn_nanos();
        }
        // Drop queries that are gone (their workers idle, their share out of the tree).
        self.reap();
        // The interval [now, now + STEP): who holds, and what each is entitled to
        // (the warm-up's window is not counted: only the digest takes it).
        self.refresh_parts();
        self.now += STEP;
        if !self.measuring && !self.cfg.digest {
            return;
        }
        let tenants = self.cfg.workload == Workload::Request;
        for q in &mut self.queries {
            let got = u64::from(q.holding) * STEP;
            q.got += got;
            // A query that has not left, or whose workers still want a core,
            // is in the tree.
            if !(q.left && q.busy == 0) || self.alloc.is_live(q.share) {
                let part = self.alloc.part(q.share);
                q.part += part * STEP as f64;
                if tenants {
                    self.tenant_got[q.tenant] += got;
                    self.tenant_part[q.tenant] += part * STEP as f64;
                }
                if self.cfg.digest {
                    self.digest.add(part.to_bits());
                }
            }
        }
    }

    /// Computes every share's part now (see `part`).
    fn refresh_parts(&mut self) {
        self.alloc.refresh_parts();
        self.refreshes += 1;
    }

    /// Query `q`'s part at the last refresh (0 if it was created since).
    fn part(&self, q: usize) -> f64 {
        let query = &self.queries[q];
        if query.born < self.refreshes {
            self.alloc.part(query.share)
        } else {
            0.0
        }
    }

    /// Whether query `q`'s share holds at least a core fewer than its part now, with
    /// none of its workers waiting yet: a worker asking now is owed a core at once.
    fn below_part(&self, q: usize) -> bool {
        let query = &self.queries[q];
        let held = query.holding;
        let queued = query.workers.iter().any(|w| w.waiting.is_some());
        !queued && (held as f64) + 1.0 <= self.part(q) + 1e-9
    }

    /// Makes the busy workers of query `q` match what it wants: idle workers ask for
    /// a core (and contend if they wait), holders beyond the want give theirs back.
    fn adjust(&mut self, q: usize) {
        let now = self.now;
        let share = self.queries[q].share;
        let (busy, want) = (self.queries[q].busy, self.queries[q].want);
        // Nothing to ask for, and no core to give back (a worker beyond the want
        // that waits gives its core back once it has one).
        if busy == want || (busy > want && self.queries[q].holding == 0) {
            return;
        }
        for _ in busy..self.queries[q].want {
            let i = self.idle_worker(q);
            let id = self.queries[q].workers[i].id;
            let due = self.below_part(q);
            self.queries[q].workers[i].busy = true;
            self.queries[q].busy += 1;
            let granted = timed!(self, Call::Request, self.alloc.request(id, share, now));
            if self.alloc.is_holding(id) {
                self.note_holding(id, true);
                self.first_core(q);
            } else {
                self.queries[q].workers[i].waiting = Some((now, due));
                let flagged = timed!(self, Call::Contend, self.alloc.contend(share, now));
                self.flagged.extend(flagged);
            }
            self.granted(granted);
        }
        let mut extra = busy.saturating_sub(self.queries[q].want);
        for i in 0..self.queries[q].workers.len() {
            let w = &self.queries[q].workers[i];
            if extra > 0 && w.busy && w.holds {
                let id = w.id;
                self.queries[q].workers[i].busy = false;
                self.queries[q].busy -= 1;
                extra -= 1;
                let granted = timed!(self, Call::Release, self.alloc.release(id, now));
                self.note_holding(id, false);
                self.granted(granted);
            }
        }
    }

    /// Request `q` is done: its workers give their cores back or leave the queue
    /// (a wait owed a core counts until then, and a request never served its
    /// whole life), then its share is dropped.
    fn finish(&mut self, q: usize) {
        let now = self.now;
        self.queries[q].left = true;
        self.queries[q].want = 0;
        for i in 0..self.queries[q].workers.len() {
            let w = &mut self.queries[q].workers[i];
            if !w.busy {
                continue;
            }
            let (id, waited) = (w.id, w.waiting.take());
            w.busy = false;
            self.queries[q].busy -= 1;
            if let Some((since, true)) = waited.filter(|_| self.measuring) {
                self.waits.push(now - since);
            }
            let granted = timed!(self, Call::Release, self.alloc.release(id, now));
            self.note_holding(id, false);
            self.granted(granted);
        }
        if let Some(t) = self.queries[q].burst_from.take().filter(|_| self.measuring) {
            self.firsts.push(now - t);
        }
        timed!(self, Call::Retire, self.alloc.retire(self.queries[q].share));
    }

    fn idle_worker(&mut self, q: usize) -> usize {
        if let Some(i) = self.queries[q].workers.iter().position(|w| !w.busy) {
            return i;
        }
        let id = self.alloc.add_worker();
        if self.owner.len() <= id.index() {
            self.owner.resize(id.index() + 1, (usize::MAX, 0));
        }
        let query = &mut self.queries[q];
        self.owner[id.index()] = (q, query.workers.len());
        query.workers.push(Worker {
            id,
            busy: false,
            holds: false,
            waiting: None,
        });
        query.workers.len() - 1
    }

    /// Query `q` holds a core: if its burst was waiting for its first, notes how
    /// long (that of a request whatever its part).
    fn first_core(&mut self, q: usize) {
        if let Some(t) = self.queries[q].burst_from.take() {
            let counts = self.cfg.workload == Workload::Request || self.part(q) >= 1.0;
            if self.measuring && counts {
                self.firsts.push(self.now - t);
            }
        }
    }

    /// Notes whether worker `id` holds a core, after a call that may have
    /// changed it: a worker gets a core only when a call returns it as granted,
    /// and loses it only by a call for it (`release`, `yield_core`).
    fn note_holding(&mut self, id: SimWorker, holds: bool) {
        let (q, i) = self.owner[id.index()];
        let query = &mut self.queries[q];
        if query.workers[i].holds != holds {
            query.workers[i].holds = holds;
            if holds {
                query.holding += 1;
            } else {
                query.holding -= 1;
            }
        }
    }

    /// Notes the hand-over latency of workers just granted a core.
    fn granted(&mut self, granted: Vec<SimWorker>) {
        for id in granted {
            self.note_holding(id, true);
            let (q, i) = self.owner[id.index()];
            self.first_core(q);
            if let Some((since, due)) = self.queries[q].workers[i].waiting.take() {
                if due && self.measuring {
                    self.waits.push(self.now - since);
                }
            }
        }
    }

    /// Forgets queries whose share has left the tree (their workers all idle).
    fn reap(&mut self) {
        let mut q = 0;
        while q < self.queries.len() {
            let query = &self.queries[q];
            // A query whose workers still want a core is in the tree.
            if query.left && query.busy == 0 && !self.alloc.is_live(query.share) {
                let gone = self.queries.swap_remove(q);
                if self.cfg.workload == Workload::Request {
                    // A request's window ends with it.
                    self.count_error(gone.got, gone.part);
                }
                for w in gone.workers {
                    self.alloc.remove_worker(w.id);
                    self.owner[w.id.index()] = (usize::MAX, 0);
                }
                // The query moved into slot q: its workers' owner entries follow.
                if q < self.queries.len() {
                    for (i, w) in self.queries[q].workers.iter().enumerate() {
                        self.owner[w.id.index()] = (q, i);
                    }
                }
            } else {
                q += 1;
            }
        }
    }

    /// The end of a one-second window: each query's error (and each tenant's,
    /// in `request`), then a new window.
    fn close_window(&mut self) {
        for q in 0..self.queries.len() {
            let query = &mut self.queries[q];
            let (got, part) = (query.got, query.part);
            query.got = 0;
            query.part = 0.0;
            self.count_error(got, part);
        }
        if self.cfg.workload == Workload::Request {
            for t in 0..self.tenants.len() {
                let got = std::mem::take(&mut self.tenant_got[t]);
                let part = std::mem::take(&mut self.tenant_part[t]);
                self.count_error(got, part);
            }
        }
        self.alloc.check();
        self.check_mirror();
    }

    /// Counts a share's error over a window (or the part of one it lived):
    /// `got` core time against `part`, the integral of its part.
    fn count_error(&mut self, got: u64, part: f64) {
        if !self.measuring {
            return;
        }
        let pool = f64::from(self.cfg.cores) * SECOND as f64;
        let error = (got as f64 - part).abs();
        self.worst_points = self.worst_points.max(100.0 * error / pool);
        if part >= SECOND as f64 {
            self.rel_windows += 1;
            self.worst_rel = self.worst_rel.max(error / part);
        }
    }

    /// Panics if what the simulation keeps of the allocator's state to spare
    /// itself a look at every worker at every step is out of step with it: the
    /// holders (`note_holding`), the flagged holders (`flagged`), the queries in
    /// the tree.
    fn check_mirror(&self) {
        let mut known: Vec<usize> = self.flagged.iter().map(|w| w.index()).collect();
        known.sort_unstable();
        for q in &self.queries {
            let mut holding = 0;
            for w in &q.workers {
                assert_eq!(w.holds, self.alloc.is_holding(w.id), "holders out of step");
                holding += u32::from(w.holds);
                assert!(
                    !self.alloc.is_flagged(w.id) || known.binary_search(&w.id.index()).is_ok(),
                    "a holder was flagged by a call other than contend or tick"
                );
            }
            assert_eq!(holding, q.holding, "a query's holders out of step");
            let busy = q.workers.iter().filter(|w| w.busy).count() as u32;
            assert_eq!(busy, q.busy, "a query's busy workers out of step");
            assert!(
                (q.left && q.busy == 0) || self.alloc.is_live(q.share),
                "a query that wants a core is out of the tree"
            );
        }
    }

    /// The configuration's name: cores, shares, workload and policy.
    fn name(&self) -> String {
        let policy = match self.cfg.policy {
            SharePolicy::Stride => "stride",
            SharePolicy::Lottery => "lottery",
            SharePolicy::MultiWinnerLottery => "multi",
        };
        let workload = match self.cfg.workload {
            Workload::Flat => "flat",
            Workload::Steady => "steady",
            Workload::Server => "server",
            Workload::Request => "request",
        };
        // Workload and policy in 14 columns, where the names fit.
        let width = 13usize.saturating_sub(workload.len().max(6));
        format!(
            "{:>4} {:>5} {workload:>6} {policy:>width$}",
            self.cfg.cores, self.cfg.shares
        )
    }

    /// What the run measured, after it ran.
    fn summary(&mut self) -> Summary {
        let seconds = self.cfg.seconds - self.cfg.warm_up;
        let decisions = self.costs.len() as f64;
        let total: f64 = self.costs.iter().map(|&c| f64::from(c)).sum();
        let ns = (total / decisions.max(1.0) - self.timer_overhead).max(0.0);
        self.costs.sort_unstable();
        let p99 = self
            .costs
            .get(self.costs.len() * 99 / 100)
            .copied()
            .unwrap_or(0);
        self.waits.sort_unstable();
        self.firsts.sort_unstable();
        let pct_of = |v: &[u64], p: f64| -> f64 {
            match v.len() {
                0 => 0.0,
                n => v[((n - 1) as f64 * p) as usize] as f64 / 1e6,
            }
        };
        let pct = |p: f64| pct_of(&self.waits, p);
        let first = |p: f64| pct_of(&self.firsts, p);
        Summary {
            points: self.worst_points,
            rel: self.worst_rel,
            rel_windows: self.rel_windows,
            wait: [pct(0.5), pct(0.99), pct(1.0)],
            first: [first(0.5), first(0.99), first(1.0)],
            per_second: decisions / seconds,
            ns,
            p99_us: f64::from(p99) / 1e3,
        }
    }

    /// Prints the run's line (and its digest, its decisions by kind).
    fn report(&mut self) {
        let s = self.summary();
        println!(
            "{} | {:>5.2} {:>5.1}% {:>5} | {:>5.2} {:>6.2} {:>7.2} | {:>5.2} {:>6.2} {:>7.2} | {:>9.0} {:>8.0} {:>8.0} {:>6.3}",
            self.name(),
            s.points,
            100.0 * s.rel,
            s.rel_windows,
            s.wait[0],
            s.wait[1],
            s.wait[2],
            s.first[0],
            s.first[1],
            s.first[2],
            s.per_second,
            s.ns,
            s.p99_us,
            s.per_second * s.ns / 1e9,
        );
        if self.cfg.digest {
            println!(
                "     digest {:016x} of {} decisions",
                self.digest.0, self.decisions
            );
        }
        if self.cfg.calls {
            let seconds = self.cfg.seconds - self.cfg.warm_up;
            let calls = (CALLS.iter().zip(self.calls).zip(self.call_nanos))
                .filter(|&(_, n)| n > 0)
                .map(|((name, n), ns)| {
                    let mean = (ns as f64 / n as f64 - self.timer_overhead).max(0.0);
                    format!("{name} {:.0} ({mean:.0} ns)", n as f64 / seconds)
                });
            println!("     per s: {}", calls.collect::<Vec<_>>().join(", "));
        }
    }
}

/// What one run measured (see the module's doc): the worst errors, the
/// hand-over's and the first core's median, 99th percentile and worst (ms),
/// decisions per simulated second and their real cost.
struct Summary {
    points: f64,
    rel: f64,
    rel_windows: usize,
    wait: [f64; 3],
    first: [f64; 3],
    per_second: f64,
    ns: f64,
    p99_us: f64,
}

/// Runs `cfg` with seeds 1 to `seeds` and prints one line: for each figure the
/// median over the runs, and for the worst error in points also the worst run,
/// for the worst relative error and the longest wait only the worst run.
fn report_over_seeds(cfg: &Config, seeds: u64) {
    let mut name = String::new();
    let runs: Vec<Summary> = (1..=seeds)
        .map(|seed| {
            let mut sim = Sim::new(Config { seed, ..*cfg });
            sim.run();
            name = sim.name();
            sim.summary()
        })
        .collect();
    let median = |f: &dyn Fn(&Summary) -> f64| {
        let mut v: Vec<f64> = runs.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let worst = |f: &dyn Fn(&Summary) -> f64| runs.iter().map(f).fold(0.0, f64::max);
    println!(
        "{name} | {:>5.2} {:>5.2} {:>5.1}% | {:>6.2} {:>7.2} | {:>5.2} {:>6.2} | {:>9.0}",
        median(&|s| s.points),
        worst(&|s| s.points),
        100.0 * worst(&|s| s.rel),
        median(&|s| s.wait[1]),
        worst(&|s| s.wait[2]),
        median(&|s| s.first[0]),
        median(&|s| s.first[1]),
        median(&|s| s.per_second),
    );
}

/// The real time `timed!` adds around an empty call (two clock readings).
fn timer_overhead() -> f64 {
    let n = 10_000;
    let t = Instant::now();
    let mut sink = 0u128;
    for _ in 0..n {
        let s = Instant::now();
        sink += s.elapsed().as_nanos();
    }
    std::hint::black_box(sink);
    t.elapsed().as_nanos() as f64 / f64::from(n)
}

fn main() {
    let mut seconds: f64 = 5.0;
    let mut warm_up: f64 = 1.0;
    let mut cores = vec![8, 64, 256];
    let mut shares = vec![10, 100, 1000];
    let mut workloads = vec![Workload::Flat, Workload::Steady, Workload::Server];
    let mut policies = vec![SharePolicy::Stride];
    let mut digest = false;
    let mut calls = false;
    let mut seed = 0;
    let mut seeds = 0;
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for pair in argv.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or("");
        let list = || value.split(',').map(str::trim);
        match pair[0].as_str() {
            "--seconds" => seconds = value.parse().expect("--seconds N"),
            "--warm-up" => warm_up = value.parse().expect("--warm-up SECONDS"),
            "--cores" => cores = list().map(|c| c.parse().expect("--cores 8,64")).collect(),
            "--shares" => shares = list().map(|s| s.parse().expect("--shares 10")).collect(),
            "--workload" => {
                workloads = list()
                    .map(|w| match w {
                        "flat" => Workload::Flat,
                        "steady" => Workload::Steady,
                        "server" => Workload::Server,
                        "request" => Workload::Request,
                        other => panic!("unknown workload {other}"),
                    })
                    .collect()
            }
            "--policy" => {
                policies = list()
                    .map(|p| match p {
                        "stride" => SharePolicy::Stride,
                        "lottery" => SharePolicy::Lottery,
                        "multi" => SharePolicy::MultiWinnerLottery,
                        other => panic!("unknown policy {other}"),
                    })
                    .collect()
            }
            "--digest" => digest = value == "on",
            "--calls" => calls = value == "on",
            "--seed" => seed = value.parse().expect("--seed N"),
            "--seeds" => seeds = value.parse().expect("--seeds N"),
            other => panic!("unknown option {other}"),
        }
    }
    assert!(
        seconds > warm_up && warm_up > 0.0,
        "--seconds: the warm-up (--warm-up, 1 s), and some measured"
    );
    println!(
        "{} simulated s per configuration ({} measured); steps of 100 µs, quanta of 4 ms",
        seconds,
        ((seconds - warm_up) * 1e6).round() / 1e6
    );
    if seeds > 0 {
        println!(
            "over seeds 1 to {seeds}: the median, and the worst run where it says so\n\
             cores shares workload policy | pts: median worst, rel: worst | wait ms: p99 median, max worst | first ms: p50 p99 | dec/s"
        );
    } else {
        println!(
            "cores shares workload policy | pts   rel    n | wait ms: p50 p99 max | first ms: p50 p99 max | dec/s ns/dec p99 µs lock"
        );
    }
    for &workload in &workloads {
        for &policy in &policies {
            for &c in &cores {
                for &s in &shares {
                    let cfg = Config {
                        cores: c,
                        shares: s,
                        workload,
                        policy,
                        seconds,
                        warm_up,
                        seed,
                        digest,
                        calls,
                    };
                    if seeds > 0 {
                        report_over_seeds(&cfg, seeds);
                        continue;
                    }
                    let mut sim = Sim::new(cfg);
                    sim.run();
                    sim.report();
                }
            }
        }
    }
}
