//! For the tests of the thieves' barrier (`src/deque/barrier.rs`), whose mode is
//! process-wide: running a test's body in a child process of its own, work that checks
//! its results while thieves take jobs, owners that leave a join frame pending while
//! they run without a safe point (so that only a thief's claim moves it), and a seccomp
//! filter that makes the kernel refuse `membarrier`, as sandboxes do.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::work::{fib, fib_seq};
use prorata::ThreadPool;
use prorata::prelude::*;

const CHILD_VAR: &str = "PRORATA_BARRIER_TEST_CHILD";

/// Whether this process is a child started by [`run_in_child`].
pub fn in_child() -> bool {
    std::env::var_os(CHILD_VAR).is_some()
}

/// Runs test `name` (its path in this binary) alone in a child process and panics
/// with its output unless it passes within `limit` (it is killed then).
pub fn run_in_child(name: &str, limit: Duration) {
    let mut child = Command::new(std::env::current_exe().expect("test binary path"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_VAR, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the child test process");
    let mut pipes = [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ];
    let readers: Vec<_> = pipes
        .iter_mut()
        .map(|p| {
            let mut pipe = p.take().expect("piped");
            std::thread::spawn(move || {
                let mut s = String::new();
                let _ = pipe.read_to_string(&mut s);
                s
            })
        })
        .collect();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output: Vec<String> = readers.into_iter().map(|r| r.join().unwrap()).collect();
    match status {
        Some(status) if status.success() => {}
        Some(status) => panic!(
            "child {name}: {status}\n--- stdout\n{}\n--- stderr\n{}",
            output[0], output[1]
        ),
        None => panic!(
            "child {name}: killed after {limit:?}\n--- stdout\n{}\n--- stderr\n{}",
            output[0], output[1]
        ),
    }
}

/// Joins, a parallel iterator, a sort and spawns on `pool`, each result checked.
pub fn exercise(pool: &ThreadPool) {
    for _ in 0..5 {
        assert_eq!(pool.install(|| fib(22)), fib_seq(22));
    }
    let v: Vec<u64> = (0..200_000).collect();
    let par: Vec<u64> = pool.install(|| v.par_iter().map(|x| x * 3 + 1).collect());
    let seq: Vec<u64> = v.iter().map(|x| x * 3 + 1).collect();
    assert_eq!(par, seq);
    let ran = AtomicUsize::new(0);
    pool.scope(|s| {
        for _ in 0..1000 {
            s.spawn(|_| {
                ran.fetch_add(1, Ordering::Relaxed);
            });
        }
    });
    assert_eq!(ran.load(Ordering::Relaxed), 1000);
    let mut sorted: Vec<u64> = (0..100_000u64)
        .map(|i| i.wrapping_mul(2654435761) % 1000)
        .collect();
    let mut expect = sorted.clone();
    expect.sort();
    pool.install(|| sorted.par_sort());
    assert_eq!(sorted, expect);
}

/// A worker of `pool` records two join frames (the first of its job, which it
/// publishes, and a second one, which stays pending) and then runs without a join or
/// a safe point until the second frame's job has run elsewhere, or `limit` has
/// passed: nothing but an idle thief's claim can take that frame. Returns whether a
/// thief ran it.
pub fn claimed_from_busy_owner(pool: &ThreadPool, limit: Duration) -> bool {
    let ran = AtomicBool::new(false);
    pool.install(|| {
        prorata::join(
            || {
                prorata::join(
                    || {
                        let start = Instant::now();
                        while !ran.load(Ordering::Acquire) && start.elapsed() < limit {
                            std::hint::spin_loop();
                        }
                        ran.load(Ordering::Acquire)
                    },
                    || ran.store(true, Ordering::Release),
                )
                .0
            },
            || (),
        )
        .0
    })
}

/// The ways [`refuse_membarrier`] makes the kernel refuse `membarrier`.
#[derive(Clone, Copy, Debug)]
pub enum Refuse {
    /// Every command, the query included.
    All,
    /// Every command but the query: the kernel says what it supports, then refuses
    /// the registration and the barriers.
    AllButQuery,
}

/// The seccomp name of this architecture, where [`refuse_membarrier`] knows it.
#[cfg(target_os = "linux")]
fn audit_arch() -> Option<u32> {
    if cfg!(target_arch = "x86_64") {
        Some(0xC000_003E)
    } else if cfg!(target_arch = "aarch64") {
        Some(0xC000_00B7)
    } else {
        None
    }
}

/// Installs a seccomp filter on every thread of the process (`TSYNC`; threads started
/// later inherit it) that makes `membarrier` fail with `errno`, and checks that it
/// does. False (nothing installed) on a system or an architecture this filter does not
/// know; panics if the kernel will not install it.
#[cfg(target_os = "linux")]
pub fn refuse_membarrier(refuse: Refuse, errno: i32) -> bool {
    // `struct seccomp_data`: the system call's number at offset 0, the architecture
    // at 4, the first argument (its low half on these little-endian targets) at 16.
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    const ARG0_LOW: u32 = 16;
    const MEMBARRIER_CMD_QUERY: u32 = 0;
    let Some(audit_arch) = audit_arch() else {
        return false;
    };

    fn stmt(code: u32, k: u32) -> libc::sock_filter {
        libc::sock_filter {
            code: code as u16,
            jt: 0,
            jf: 0,
            k,
        }
    }
    fn jump_eq(k: u32, jt: u8, jf: u8) -> libc::sock_filter {
        libc::sock_filter {
            code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
            jt,
            jf,
            k,
        }
    }
    let load = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let ret = libc::BPF_RET | libc::BPF_K;
    let allow = stmt(ret, libc::SECCOMP_RET_ALLOW);
    let deny = stmt(ret, libc::SECCOMP_RET_ERRNO | (errno as u32 & 0xffff));
    let mut program = vec![
        stmt(load, ARCH),
        // Another architecture's calls (none here) pass.
        jump_eq(audit_arch, 1, 0),
        allow,
        stmt(load, NR),
        // Not membarrier: skip to the last `allow`.
        jump_eq(libc::SYS_membarrier as u32, 0, 0),
    ];
    match refuse {
        Refuse::All => program.push(deny),
        Refuse::AllButQuery => {
            program.push(stmt(load, ARG0_LOW));
            program.push(jump_eq(MEMBARRIER_CMD_QUERY, 1, 0));
            program.push(deny);
        }
    }
    program.push(allow);
    // The jump over the membarrier part, now that its length is known.
    let from = 4;
    let last = program.len() - 1;
    program[from].jf = (last - from - 1) as u8;
    let fprog = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_mut_ptr(),
    };
    // SAFETY: plain system calls; `fprog` points to `program`, alive across the call.
    unsafe {
        assert_eq!(
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
            0,
            "PR_SET_NO_NEW_PRIVS: {}",
            std::io::Error::last_os_error()
        );
        let r = libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            libc::SECCOMP_FILTER_FLAG_TSYNC,
            &fprog as *const libc::sock_fprog,
        );
        assert_eq!(r, 0, "seccomp filter: {}", std::io::Error::last_os_error());
    }
    // The filter works: the query fails, or a barrier without registration does.
    // SAFETY: membarrier(cmd, flags = 0, cpu_id = 0) takes no pointers.
    let probe = |cmd: libc::c_long| unsafe { libc::syscall(libc::SYS_membarrier, cmd, 0, 0) };
    match refuse {
        Refuse::All => assert_eq!(probe(0), -1),
        Refuse::AllButQuery => {
            assert!(probe(0) >= 0);
            assert_eq!(probe(1 << 4), -1);
        }
    }
    assert_eq!(std::io::Error::last_os_error().raw_os_error(), Some(errno));
    true
}

/// Not Linux: no filter.
#[cfg(not(target_os = "linux"))]
pub fn refuse_membarrier(_refuse: Refuse, _errno: i32) -> bool {
    false
}
