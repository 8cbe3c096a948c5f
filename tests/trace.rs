//! The timeline (cargo feature `trace`): a known workload recorded, its events checked
//! (every job that starts ends, times never go back, the counts agree with
//! `ThreadPool::stats`), the Chrome JSON parsed and the SVG checked for well-formed XML.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use prorata::prelude::*;
use prorata::{ThreadPool, ThreadPoolBuilder, Trace, TraceEventKind, TraceLane};
use serde_json::Value;

mod workers_common;
use workers_common::join_run_elsewhere;

fn pool(n: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("traced-{i}"))
        .build()
        .unwrap()
}

/// A workload with a known number of jobs: the installed job, `spawns` scope spawns,
/// and a `join` whose second half must run on another worker (the first waits for
/// it), plus a parallel sum.
fn workload(p: &ThreadPool, spawns: usize) -> u64 {
    let done = AtomicUsize::new(0);
    p.install(|| {
        prorata::scope(|s| {
            for _ in 0..spawns {
                s.spawn(|_| {
                    done.fetch_add(1, Ordering::Relaxed);
                });
            }
        });
        join_run_elsewhere();
        assert_eq!(done.load(Ordering::Relaxed), spawns);
        (0..100_000u64).into_par_iter().map(|x| x % 7).sum()
    })
}

fn count(lane: &TraceLane, f: impl Fn(TraceEventKind) -> bool) -> u64 {
    lane.events.iter().filter(|e| f(e.kind)).count() as u64
}

fn total(trace: &Trace, f: impl Fn(TraceEventKind) -> bool + Copy) -> u64 {
    trace.lanes().iter().map(|l| count(l, f)).sum()
}

/// Every job start has its end, nested as calls nest; every sleep and wait for a
/// core too (or it is the last thing on the lane: the worker was still in it).
fn check_pairs(lane: &TraceLane) {
    let mut open = Vec::new();
    for e in &lane.events {
        match e.kind {
            TraceEventKind::JobStart => open.push("job"),
            TraceEventKind::SleepStart => open.push("sleep"),
            TraceEventKind::CoreWait | TraceEventKind::Preempted => open.push("core"),
            TraceEventKind::JobEnd => assert_eq!(open.pop(), Some("job"), "{}", lane.thread),
            // A worker asleep when the recording began wakes without a start.
            TraceEventKind::SleepEnd { .. } if !open.is_empty() || lane.events[0] != *e => {
                assert_eq!(open.pop(), Some("sleep"), "{}", lane.thread);
            }
            TraceEventKind::CoreGranted => assert_eq!(open.pop(), Some("core")),
            _ => {}
        }
    }
    assert!(
        !open.contains(&"job"),
        "{}: a job started and did not end: {:?}",
        lane.thread,
        lane.events
    );
}

#[test]
fn known_workload_every_job_ends_and_counts_agree() {
    let p = pool(2);
    let before = p.stats();
    p.start_trace();
    let sum = workload(&p, 100);
    let trace = p.stop_trace();
    let after = p.stats();
    assert_eq!(sum, (0..100_000u64).map(|x| x % 7).sum::<u64>());
    assert_eq!(trace.lost_events(), 0);
    assert!(!trace.lanes().is_empty());
    for lane in trace.lanes() {
        assert_eq!((lane.pool.as_str(), lane.share), ("pool", 0));
        assert_eq!(lane.thread, format!("traced-{}", lane.worker));
        assert!(
            lane.events.windows(2).all(|w| w[0].at <= w[1].at),
            "{}: times go back",
            lane.thread
        );
        assert!(lane.events.iter().all(|e| e.at <= trace.duration()));
        check_pairs(lane);
    }
    let jobs = total(&trace, |k| k == TraceEventKind::JobStart);
    assert_eq!(jobs, total(&trace, |k| k == TraceEventKind::JobEnd));
    assert!(jobs >= 102, "install, 100 spawns and a stolen half: {jobs}");
    assert_eq!(jobs, after.jobs - before.jobs);
    let steals = total(&trace, |k| matches!(k, TraceEventKind::Steal { .. }));
    let claims = total(&trace, |k| k == TraceEventKind::Claim);
    assert_eq!(steals, after.steals - before.steals);
    assert_eq!(claims, after.frames_claimed - before.frames_claimed);
    assert!(steals + claims >= 1, "the join's second half ran elsewhere");
    let published = total(&trace, |k| k == TraceEventKind::Publish);
    assert_eq!(published, after.frames_published - before.frames_published);
    for lane in trace.lanes() {
        for e in &lane.events {
            if let TraceEventKind::Steal { victim } = e.kind {
                assert!(victim < 2 && victim != lane.worker);
            }
        }
    }
    check_json(&trace, &["pool"]);
    check_svg(&trace.to_svg(), &["pool", "traced-0"]);
}

#[test]
fn shares_record_with_their_pool() {
    let p = pool(2);
    let fg = p.share(300).unwrap();
    let bg = p.share(100).unwrap();
    p.start_trace();
    let nested = bg.share(5).unwrap(); // made during the recording
    std::thread::scope(|s| {
        s.spawn(|| fg.install(|| (0..200_000u64).into_par_iter().map(|x| x % 3).sum::<u64>()));
        s.spawn(|| bg.install(|| (0..200_000u64).into_par_iter().map(|x| x % 5).sum::<u64>()));
        s.spawn(|| nested.install(|| prorata::join(|| 1, || 2)));
    });
    let trace = p.stop_trace();
    let pools: Vec<&str> = trace.lanes().iter().map(|l| l.pool.as_str()).collect();
    for name in [
        "share 1: 300 tickets",
        "share 2: 100 tickets",
        "share 3: 5 tickets of share 2",
    ] {
        assert!(pools.contains(&name), "{name} in {pools:?}");
    }
    for lane in trace.lanes() {
        assert!(lane.events.windows(2).all(|w| w[0].at <= w[1].at));
        check_pairs(lane);
        if lane.share > 0 && count(lane, |k| k == TraceEventKind::JobStart) > 0 {
            // A share's worker takes a core before it runs anything.
            assert!(count(lane, |k| k == TraceEventKind::CoreGranted) >= 1);
        }
    }
    let numbers: Vec<(usize, &str)> = trace
        .lanes()
        .iter()
        .map(|l| (l.share, l.pool.as_str()))
        .collect();
    assert!(numbers.contains(&(3, "share 3: 5 tickets of share 2")));
    check_json(&trace, &["share 1", "share 2", "share 3"]);
    // Every lane is labelled with its thread's name (which workers of a share ran
    // during the recording is the scheduler's choice).
    let svg = trace.to_svg();
    let threads: Vec<&str> = trace.lanes().iter().map(|l| l.thread.as_str()).collect();
    assert!(threads.iter().any(|t| t.starts_with("prorata-share-")));
    let mut texts = vec!["share 1: 300 tickets"];
    texts.extend(&threads);
    check_svg(&svg, &texts);
}

#[test]
fn a_share_dropped_during_the_recording_keeps_its_lanes() {
    let p = pool(2);
    p.start_trace();
    let s = p.share(7).unwrap();
    s.install(|| prorata::join(|| (), || ()));
    drop(s);
    let trace = p.stop_trace();
    assert!(trace.lanes().iter().any(|l| l.pool == "share 1: 7 tickets"));
}

#[test]
fn recordings_start_afresh_and_stop_once() {
    let p = pool(2);
    p.start_trace();
    p.install(|| ());
    let first = p.stop_trace();
    assert_eq!(total(&first, |k| k == TraceEventKind::JobStart), 1);
    assert!(p.stop_trace().lanes().is_empty());
    p.start_trace();
    p.install(|| ());
    p.start_trace(); // anew: the first install is forgotten
    p.install(|| ());
    p.install(|| ());
    let second = p.stop_trace();
    assert_eq!(total(&second, |k| k == TraceEventKind::JobStart), 2);
    // A pool that is not recording records nothing.
    p.install(|| ());
    assert!(p.stop_trace().lanes().is_empty());
}

#[test]
fn a_long_recording_keeps_the_newest_events_and_counts_the_lost() {
    let p = pool(1);
    let spawns = Trace::WORKER_CAPACITY; // two events each: the ring wraps
    let before = p.stats();
    p.start_trace();
    p.install(|| prorata::scope(|s| (0..spawns).for_each(|_| s.spawn(|_| ()))));
    let trace = p.stop_trace();
    let jobs = p.stats().jobs - before.jobs;
    assert_eq!(trace.lanes().len(), 1);
    let lane = &trace.lanes()[0];
    assert!(lane.lost > 0 && lane.lost % 4096 == 0, "lost {}", lane.lost);
    assert!(lane.events.len() <= Trace::WORKER_CAPACITY);
    assert!(lane.lost + lane.events.len() as u64 >= 2 * jobs);
    assert!(count(lane, |k| k == TraceEventKind::JobStart) < jobs);
    assert!(lane.events.windows(2).all(|w| w[0].at <= w[1].at));
    // The newest events are kept: the last job's end is there (a sleep may follow).
    let last_job_event = lane
        .events
        .iter()
        .rev()
        .find(|e| matches!(e.kind, TraceEventKind::JobStart | TraceEventKind::JobEnd));
    assert_eq!(last_job_event.map(|e| e.kind), Some(TraceEventKind::JobEnd));
    check_json(&trace, &["pool"]);
}

#[test]
fn empty_trace_writes_valid_files() {
    let trace = Trace::default();
    assert_eq!(trace.duration(), std::time::Duration::ZERO);
    check_json(&trace, &[]);
    check_svg(&trace.to_svg(), &["prorata timeline"]);
}

/// The JSON parses; it has a named process per pool or share, a named thread per lane,
/// one complete event per job (named after its pool or share; also for a job whose start
/// was lost), and every event's fields are of the right type.
fn check_json(trace: &Trace, categories: &[&str]) {
    let json: Value = serde_json::from_str(&trace.to_chrome_json()).expect("valid JSON");
    let events = json["traceEvents"].as_array().expect("a traceEvents array");
    let mut thread_names = HashMap::new();
    let mut jobs = 0;
    let mut cats = Vec::new();
    for e in events {
        let ph = e["ph"].as_str().expect("ph");
        assert!(
            e["pid"].as_u64().is_some() && e["tid"].as_u64().is_some(),
            "{e}"
        );
        match ph {
            "M" => {
                if e["name"] == "thread_name" {
                    let name = e["args"]["name"].as_str().unwrap().to_owned();
                    thread_names.insert((e["pid"].as_u64(), e["tid"].as_u64()), name);
                }
            }
            "X" => {
                let (ts, dur) = (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap());
                assert!(ts >= 0.0 && dur >= 0.0, "{e}");
                assert!(
                    ts + dur <= trace.duration().as_secs_f64() * 1e6 + 0.01,
                    "{e}"
                );
                let cat = e["cat"].as_str().unwrap();
                if !matches!(cat, "sleep" | "core") {
                    jobs += 1;
                    if !cats.contains(&cat.to_owned()) {
                        cats.push(cat.to_owned());
                    }
                }
                assert!(thread_names.contains_key(&(e["pid"].as_u64(), e["tid"].as_u64())));
            }
            "i" => assert_eq!(e["s"], "t"),
            other => panic!("unexpected phase {other}"),
        }
    }
    assert_eq!(thread_names.len(), trace.lanes().len());
    let starts = total(trace, |k| k == TraceEventKind::JobStart);
    if trace.lost_events() == 0 {
        assert_eq!(jobs, starts);
    } else {
        // Jobs whose start was overwritten are drawn from the first event kept.
        assert!(jobs >= starts, "{jobs} < {starts}");
    }
    for c in categories {
        assert!(cats.iter().any(|x| x == c), "{c} in {cats:?}");
    }
}

/// The SVG is well-formed XML with an `svg` root and mentions `texts`.
fn check_svg(svg: &str, texts: &[&str]) {
    let root = xml::check(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(root, "svg");
    for t in texts {
        assert!(svg.contains(t), "{t}");
    }
}

/// A small well-formedness checker: balanced tags, quoted attributes, known entities.
mod xml {
    fn name(s: &str) -> (&str, &str) {
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || "-_:.".contains(c)))
            .unwrap_or(s.len());
        (&s[..end], &s[end..])
    }

    fn text(s: &str) -> Result<(), String> {
        let mut rest = s;
        while let Some(i) = rest.find('&') {
            rest = &rest[i + 1..];
            let end = rest.find(';').ok_or("an unterminated entity")?;
            let entity = &rest[..end];
            let known = ["amp", "lt", "gt", "quot", "apos"].contains(&entity)
                || (entity.starts_with('#') && entity.len() > 1);
            if !known {
                return Err(format!("unknown entity &{entity};"));
            }
        }
        if s.contains('<') || s.contains('>') {
            return Err(format!("a raw < or > in {s:?}"));
        }
        Ok(())
    }

    /// The root element's name, or what is wrong.
    pub fn check(doc: &str) -> Result<String, String> {
        let mut stack: Vec<&str> = Vec::new();
        let mut root = None;
        let mut rest = doc;
        loop {
            let Some(i) = rest.find('<') else {
                text(rest)?;
                break;
            };
            text(&rest[..i])?;
            if !stack.is_empty() || rest[..i].trim().is_empty() {
            } else {
                return Err("text outside the root".into());
            }
            rest = &rest[i + 1..];
            if let Some(r) = rest.strip_prefix('/') {
                let (tag, r) = name(r);
                let r = r.trim_start().strip_prefix('>').ok_or("a bad end tag")?;
                if stack.pop() != Some(tag) {
                    return Err(format!("</{tag}> closes nothing open"));
                }
                rest = r;
                continue;
            }
            let (tag, mut r) = name(rest);
            if tag.is_empty() {
                return Err("a tag without a name".into());
            }
            if stack.is_empty() {
                if root.is_some() {
                    return Err("two roots".into());
                }
                root = Some(tag.to_owned());
            }
            loop {
                r = r.trim_start();
                if let Some(after) = r.strip_prefix("/>") {
                    rest = after;
                    break;
                }
                if let Some(after) = r.strip_prefix('>') {
                    stack.push(tag);
                    rest = after;
                    break;
                }
                let (attr, after) = name(r);
                if attr.is_empty() {
                    return Err(format!("a bad attribute in <{tag}>"));
                }
                let after = after.strip_prefix("=\"").ok_or("an unquoted attribute")?;
                let end = after.find('"').ok_or("an unterminated attribute")?;
                text(&after[..end])?;
                r = &after[end + 1..];
            }
        }
        if !stack.is_empty() {
            return Err(format!("unclosed {stack:?}"));
        }
        root.ok_or_else(|| "no root".into())
    }

    #[test]
    fn the_checker_rejects_what_it_should() {
        assert_eq!(check("<a x=\"1\"><b/>t &amp; u</a>\n").unwrap(), "a");
        for bad in [
            "<a>",
            "<a></b>",
            "<a x=1/>",
            "<a>&nope;</a>",
            "<a/><b/>",
            "x<a/>",
            "<a>1 < 2</a>",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}
