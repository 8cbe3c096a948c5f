//! What a soak run is told: duration, seed, workers, soak threads, deadline.

use std::time::Duration;

/// The settings of one soak run (from the environment for the long run).
#[derive(Debug, Clone)]
pub struct Settings {
    /// How long the soak threads pick operations.
    pub duration: Duration,
    /// The seed every soak thread's generator derives from.
    pub seed: u64,
    /// The most workers of a pool (the global pool has exactly this many).
    pub workers: usize,
    /// Soak threads picking operations at once.
    pub threads: usize,
    /// An operation (or the final drain) running longer than this is a deadlock.
    pub deadline: Duration,
    /// The most items one operation makes (smaller under valgrind).
    pub max_len: usize,
}

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    let v = std::env::var(name).ok()?;
    match v.trim().parse() {
        Ok(x) => Some(x),
        Err(_) => panic!("soak: {name}={v:?} is not a valid value"),
    }
}

impl Settings {
    /// `PRORATA_SOAK_SECS` (default `secs`), `PRORATA_SOAK_SEED` (default: from the
    /// clock), `PRORATA_SOAK_WORKERS` (default 2), `PRORATA_SOAK_THREADS` (default 4),
    /// `PRORATA_SOAK_DEADLINE` in seconds (default 60), `PRORATA_SOAK_MAX_LEN` (default
    /// 300000).
    pub fn from_env(secs: f64) -> Settings {
        let seed = env("PRORATA_SOAK_SEED").unwrap_or_else(|| {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            t.as_nanos() as u64 ^ u64::from(std::process::id()).rotate_left(32)
        });
        Settings {
            duration: Duration::from_secs_f64(env("PRORATA_SOAK_SECS").unwrap_or(secs)),
            seed,
            workers: env::<usize>("PRORATA_SOAK_WORKERS").unwrap_or(2).max(1),
            threads: env::<usize>("PRORATA_SOAK_THREADS")
                .unwrap_or(4)
                .clamp(1, 64),
            deadline: Duration::from_secs_f64(env("PRORATA_SOAK_DEADLINE").unwrap_or(60.0)),
            max_len: env("PRORATA_SOAK_MAX_LEN").unwrap_or(300_000),
        }
    }

    /// A regression run of `seed` for `secs`, other settings from the environment.
    pub fn regression(seed: u64, secs: f64) -> Settings {
        Settings {
            duration: Duration::from_secs_f64(secs),
            seed,
            ..Settings::from_env(secs)
        }
    }
}
