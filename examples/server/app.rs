//! The server: an axum router whose handlers run their CPU work on a pool, in one
//! of three ways (a [`Backend`]): prorata with a share per request, prorata's pool
//! with no shares, or a Rayon pool called from tokio's `spawn_blocking` (what a
//! server does today). `tests/serving.rs` runs this same file.
//!
//! Endpoints (GET; the query names the tenant, and `panic=1` makes the
//! computation panic):
//! - `/interactive?tenant=alpha`: about 1 ms of CPU, split by `par_iter`;
//! - `/bulk?tenant=beta`: about 200 ms of CPU, split the same way.
//!
//! A malformed request gets a 400 with a message, a computation that panics a 500;
//! the server goes on serving either way.

#![allow(dead_code)] // the test uses part of it

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::routing::get;

/// A tenant: a name, and (with shares) its currency.
pub struct Tenant {
    pub name: &'static str,
    pub tickets: u32,
}

/// The two tenants: alpha pays for nine parts of the cores, beta for one.
pub const TENANTS: [Tenant; 2] = [
    Tenant {
        name: "alpha",
        tickets: 900,
    },
    Tenant {
        name: "beta",
        tickets: 100,
    },
];

/// Tickets of a request's share in its tenant's currency, by endpoint: an
/// interactive request outweighs the tenant's bulk requests a hundred to one.
pub const INTERACTIVE_TICKETS: u32 = 100;
pub const BULK_TICKETS: u32 = 1;

/// How the handlers run their computations.
pub enum Backend {
    /// prorata: each tenant a share of the pool, each request a share of its tenant.
    Shares {
        pool: prorata::ThreadPool,
        tenants: Vec<prorata::Share>,
    },
    /// prorata's pool, every request alike.
    Pool(prorata::ThreadPool),
    /// A Rayon pool, entered from tokio's blocking threads.
    Rayon(Arc<rayon::ThreadPool>),
}

impl Backend {
    pub fn shares(workers: usize) -> Backend {
        let pool = prorata_pool(workers);
        let tenants = TENANTS
            .iter()
            .map(|t| pool.share(t.tickets).expect("a tenant's share"))
            .collect();
        Backend::Shares { pool, tenants }
    }

    pub fn pool(workers: usize) -> Backend {
        Backend::Pool(prorata_pool(workers))
    }

    pub fn rayon(workers: usize) -> Backend {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .expect("a Rayon pool");
        Backend::Rayon(Arc::new(pool))
    }

    pub fn label(&self) -> &'static str {
        match self {
            Backend::Shares { .. } => "prorata, a share per request",
            Backend::Pool(_) => "prorata, one pool, no shares",
            Backend::Rayon(_) => "Rayon pool from spawn_blocking",
        }
    }
}

fn prorata_pool(workers: usize) -> prorata::ThreadPool {
    prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .expect("a prorata pool")
}

/// The computations' sizes, in units of [`kernel`] (see [`calibrate`]).
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub interactive: u64,
    pub bulk: u64,
}

/// What the handlers share.
pub struct App {
    pub backend: Backend,
    pub sizes: Sizes,
}

/// The router over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/interactive", get(interactive))
        .route("/bulk", get(bulk))
        .with_state(app)
}

async fn interactive(State(app): State<Arc<App>>, uri: Uri) -> (StatusCode, String) {
    let units = app.sizes.interactive;
    serve(&app, &uri, units, INTERACTIVE_TICKETS).await
}

async fn bulk(State(app): State<Arc<App>>, uri: Uri) -> (StatusCode, String) {
    let units = app.sizes.bulk;
    serve(&app, &uri, units, BULK_TICKETS).await
}

/// A request, as its query says.
struct Request {
    tenant: usize,
    panic: bool,
}

/// Reads `tenant=<name>` (required) and `panic=0|1` (optional) from the query.
fn parse(uri: &Uri) -> Result<Request, String> {
    let mut tenant = None;
    let mut panic = false;
    for pair in uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "tenant" => {
                let known = TENANTS.iter().position(|t| t.name == value);
                tenant = Some(known.ok_or_else(|| {
                    format!("unknown tenant `{value}`; the tenants are alpha and beta\n")
                })?);
            }
            "panic" => {
                panic = match value {
                    "0" => false,
                    "1" => true,
                    _ => return Err(format!("`panic` is 0 or 1, not `{value}`\n")),
                }
            }
            _ => return Err(format!("unknown parameter `{key}`\n")),
        }
    }
    let tenant = tenant.ok_or("the query must name a tenant: ?tenant=alpha\n")?;
    Ok(Request { tenant, panic })
}

async fn serve(app: &Arc<App>, uri: &Uri, units: u64, tickets: u32) -> (StatusCode, String) {
    let request = match parse(uri) {
        Ok(r) => r,
        Err(message) => return (StatusCode::BAD_REQUEST, message),
    };
    let seed = request.tenant as u64;
    let panic = request.panic;
    let outcome = match &app.backend {
        Backend::Shares { tenants, .. } => {
            // A share per request, in its tenant's currency: no thread starts here.
            let share = tenants[request.tenant]
                .share(tickets)
                .expect("tickets are not zero");
            share
                .spawn_future(move || compute(panic, || kernel_prorata(units, seed)))
                .await
        }
        Backend::Pool(pool) => {
            pool.spawn_future(move || compute(panic, || kernel_prorata(units, seed)))
                .await
        }
        Backend::Rayon(pool) => {
            let pool = Arc::clone(pool);
            let blocking = tokio::task::spawn_blocking(move || {
                pool.install(move || compute(panic, || kernel_rayon(units, seed)))
            });
            blocking.await.expect("the blocking task does not panic")
        }
    };
    match outcome {
        Ok(sum) => (StatusCode::OK, format!("{sum}\n")),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computation panicked\n".to_owned(),
        ),
    }
}

/// Runs a request's computation (`kernel`, or a panic if asked for one), catching
/// its panic where it runs: the handler turns it into a 500.
fn compute(panic: bool, kernel: impl FnOnce() -> u64) -> std::thread::Result<u64> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        if panic {
            panic!("the computation was asked to panic");
        }
        kernel()
    }))
}

/// One unit of work: a few rounds of a 64-bit mix.
#[inline]
fn unit(i: u64, seed: u64) -> u64 {
    let mut x = i ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for _ in 0..8 {
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 29);
    }
    x >> 40
}

/// `units` units split by prorata's `par_iter`.
pub fn kernel_prorata(units: u64, seed: u64) -> u64 {
    use prorata::prelude::*;
    (0..units).into_par_iter().map(|i| unit(i, seed)).sum()
}

/// `units` units split by Rayon's `par_iter`.
pub fn kernel_rayon(units: u64, seed: u64) -> u64 {
    use rayon::prelude::*;
    (0..units).into_par_iter().map(|i| unit(i, seed)).sum()
}

/// The units one millisecond of CPU runs on this machine (sequentially, best of
/// a few tries).
pub fn units_per_ms() -> u64 {
    let probe = 200_000u64;
    let best = (0..5)
        .map(|_| {
            let t = std::time::Instant::now();
            let s: u64 = (0..probe).map(|i| unit(i, 1)).sum();
            std::hint::black_box(s);
            t.elapsed()
        })
        .min()
        .expect("five tries");
    (probe as f64 / (best.as_secs_f64() * 1e3)).max(1.0) as u64
}

/// Sizes of about 1 ms (interactive) and 200 ms (bulk) of CPU.
pub fn calibrate() -> Sizes {
    let per_ms = units_per_ms();
    Sizes {
        interactive: per_ms,
        bulk: 200 * per_ms,
    }
}

/// The expected body of a request's success, to check answers.
pub fn expected(units: u64, tenant: usize) -> String {
    let seed = tenant as u64;
    format!("{}\n", (0..units).map(|i| unit(i, seed)).sum::<u64>())
}
