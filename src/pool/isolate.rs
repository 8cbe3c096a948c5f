//! Isolation: waits that cannot run unrelated work (oneTBB's `this_task_arena::isolate`).
//!
//! A worker that waits for a stolen half of a join (or a scope, or an `install`) runs
//! other jobs meanwhile. That is what keeps its core busy, and what deadlocks a program
//! that holds a lock around a parallel call whose waits may pick up an outer job that
//! takes the same lock. Inside [`isolate`], a waiting worker runs only jobs started
//! inside the same call.
//!
//! The rules:
//! - Each call of `isolate` on a worker opens a *region*, a number no other call shares.
//!   The worker's region is in its `ThreadInfo` (0 outside any), set for the call and
//!   restored after it.
//! - A job started inside a region belongs to it: every job a worker queues while in a
//!   region (a published join frame, a spawn, a broadcast) is wrapped in a
//!   [`RegionJob`], whose reference is marked (`JobRef::new_marked`), so that a waiting
//!   worker reads its region before it runs it; a join frame claimed straight from its
//!   owner's stack belongs to the owner's region (`Registry::claim_frame_in`). Running
//!   a region's job puts its worker in that region for the job's duration, so the
//!   job's own waits are isolated too.
//! - A worker that waits inside a region takes only jobs of that region: from its own
//!   deque (a job of another region on top goes to the injector, an outer job, which
//!   lies below every job the region queued there, stays), its broadcasts, frames
//!   claimed from workers in the same region, and calls from outside that belong to
//!   the region. It steals nothing from other deques: it cannot tell their jobs'
//!   regions before it owns them. It never runs an outer job, so a lock held around
//!   the region cannot be taken again on its thread.
//! - A call that leaves the pool from inside a region (an `install` into another
//!   pool or a share, a `block_in_place` closure) *carries* the region: the thread
//!   that runs it notes (pool, region) in a thread-local while it does, and a call it
//!   makes back into that pool is injected marked with the region (as are the jobs
//!   it queues meanwhile, and the frames a thief claims from it, so that whichever
//!   worker of the other pool runs them carries the region too). The waiting
//!   worker takes it from the injector (one of another region goes back to the
//!   injector's end), so a call back cannot wait forever for a worker that takes no
//!   other call from outside.
//! - Over-isolation is safe: a job marked with a region it does not belong to only
//!   restricts what its waits run, and a wait that runs nothing still ends (the job it
//!   waits for runs on the thread that took it). Under-isolation is what must never
//!   happen, and does not: a worker enters a region only after publishing the frames it
//!   has pending, and every job it queues inside is marked.
//!
//! Unused, isolation costs nothing on a join's fast path (it reads no region); a publish
//! reads the worker's region once.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::job::{Job, JobRef};
use super::worker::WorkerThread;
use crate::deque::{Injector, Steal};

/// The last region number handed out (0 means "no region").
static LAST_REGION: AtomicUsize = AtomicUsize::new(0);

/// Runs `op` so that the current worker, while it waits inside `op` for a `join`,
/// `scope` or `install` of its pool, runs only jobs that `op` started (directly or
/// through the jobs it started), never one of the work around it.
///
/// The reference is oneTBB's `this_task_arena::isolate`. The need: a worker that waits
/// for a stolen half of a join runs other jobs of its pool meanwhile, as in Rayon. If
/// the caller holds a lock across a parallel call, such a job can be one that takes the
/// same lock, on the same thread, and the program deadlocks (Rayon issue #592):
///
/// ```
/// use prorata::prelude::*;
/// use std::sync::Mutex;
///
/// let cache = Mutex::new(Vec::new());
/// (0..8).into_par_iter().for_each(|i| {
///     let mut cache = cache.lock().unwrap();
///     // Without `isolate`, this inner loop's waits could start another item of
///     // the outer loop on this thread, which would block on `cache` forever.
///     let sum: i32 = prorata::isolate(|| (0..100).into_par_iter().map(|x| x * i).sum());
///     cache.push(sum);
/// });
/// assert_eq!(cache.into_inner().unwrap().len(), 8);
/// ```
///
/// The jobs `op` starts still run on any worker of the pool, and a worker that takes
/// one of them is isolated while it runs it. What isolation costs: a waiting worker
/// inside `op` steals nothing from the other workers' queues (it takes the jobs of
/// `op` left on its own queue and the pending halves it can claim from workers inside
/// the same call), and takes no call from outside the pool but those made back into
/// it for `op`'s own work (from another pool or a share that `op` called, or from a
/// [`block_in_place`](crate::block_in_place) closure); so a wait may leave its core
/// idle where it would have run something else; and each job published inside `op`
/// is boxed once. Outside `isolate` nothing changes and nothing is paid.
///
/// Called from a thread outside any pool, `op` runs as it is: such a thread runs no
/// pool job while it waits. Isolation is per pool: an `install` into another pool (a
/// share, say) runs there as usual, while the caller's own waits stay isolated.
/// Regions nest: inside an inner `isolate`, waits run only the inner call's jobs.
/// A panic in `op` propagates, and the worker's previous region is restored.
pub fn isolate<OP, R>(op: OP) -> R
where
    OP: FnOnce() -> R,
{
    match WorkerThread::current() {
        Some(worker) => in_region(worker, op),
        None => op(),
    }
}

/// Runs `op` in a new region of `worker`, the current thread's.
fn in_region<OP, R>(worker: &WorkerThread, op: OP) -> R
where
    OP: FnOnce() -> R,
{
    // Frames pending from before belong to the outer work: they leave the stack
    // unmarked now, so that nothing recorded before the region is claimed as its own.
    worker.publish_all();
    let region = LAST_REGION.fetch_add(1, Ordering::Relaxed) + 1;
    assert!(region < usize::MAX / 2, "prorata: isolated region overflow");
    let _restore = RegionGuard::enter(worker, region);
    op()
}

/// Puts the current worker in a region until dropped (after a panic too), then back
/// in the one it was in.
struct RegionGuard<'a> {
    worker: &'a WorkerThread,
    previous: usize,
}

impl<'a> RegionGuard<'a> {
    fn enter(worker: &'a WorkerThread, region: usize) -> Self {
        let previous = worker.set_region(region);
        RegionGuard { worker, previous }
    }
}

impl Drop for RegionGuard<'_> {
    fn drop(&mut self) {
        self.worker.set_region(self.previous);
    }
}

/// A job started inside a region, or for the work of other pools' regions: runs
/// `job` with its worker in `region` and carrying `carried`.
struct RegionJob {
    job: JobRef,
    region: usize,
    carried: Context,
}

impl Job for RegionJob {
    unsafe fn execute(this: *const Self) {
        // SAFETY: `this` came from `Box::into_raw` in `mark` and is executed once.
        let RegionJob {
            job,
            region,
            carried,
        } = *unsafe { Box::from_raw(this.cast_mut()) };
        carrying(carried, || match WorkerThread::current() {
            Some(worker) => {
                let _restore = RegionGuard::enter(worker, region);
                // SAFETY: the wrapped job is live and executed once, as its wrapper.
                unsafe { job.execute() };
            }
            // SAFETY: as above (jobs run on workers; nothing to isolate otherwise).
            None => unsafe { job.execute() },
        })
    }
}

/// The isolated regions a call is made for, as (registry id, region) pairs,
/// innermost last: empty outside any region.
pub(crate) type Context = Vec<(usize, usize)>;

thread_local! {
    /// The isolated regions whose work this thread does for other pools: set while
    /// a thread that is not those pools' worker runs a call a worker of one made
    /// from inside a region (an `install` into another pool or share, a
    /// `block_in_place` closure), and kept through further calls (a share's job
    /// that enters a region of its own still works for the caller's). A call this
    /// thread makes back into one of those pools belongs to its region
    /// (`carried_region`).
    static CARRIED: RefCell<Context> = const { RefCell::new(Vec::new()) };
}

/// The regions the current thread's work belongs to: those it carries, and its
/// worker's own region, if it is in one.
pub(crate) fn current_context() -> Context {
    let mut context = CARRIED.with(|c| c.borrow().clone());
    if let Some(worker) = WorkerThread::current() {
        if worker.region() != 0 {
            context.push((worker.registry().id(), worker.region()));
        }
    }
    context
}

/// The region of `registry_id`'s pool that a call the current thread makes into
/// that pool belongs to (0 for none): a job it injects there is marked with it, so
/// that the worker waiting inside the region (which takes no other call from
/// outside) runs it rather than wait for it forever.
pub(crate) fn carried_region(registry_id: usize) -> usize {
    if let Some(worker) = WorkerThread::current() {
        if worker.region() != 0 && worker.registry().id() == registry_id {
            return worker.region();
        }
    }
    CARRIED.with(|c| {
        c.borrow()
            .iter()
            .rev()
            .find(|&&(id, _)| id == registry_id)
            .map_or(0, |&(_, region)| region)
    })
}

/// Runs `f` carrying `context` (from [`current_context`] on the thread that made the
/// call `f` serves), then restores what this thread carried before.
pub(crate) fn carrying<R>(context: Context, f: impl FnOnce() -> R) -> R {
    struct Restore(Context);
    impl Drop for Restore {
        fn drop(&mut self) {
            CARRIED.with(|c| *c.borrow_mut() = std::mem::take(&mut self.0));
        }
    }
    if context.is_empty() && CARRIED.with(|c| c.borrow().is_empty()) {
        return f();
    }
    // A worker's frames pending from before belong to its earlier work: they leave
    // its stack with what it carried then; a thief that claims a frame recorded
    // while it carries these reads them in its `ThreadInfo` (`claim_frame_in`).
    struct Uncarry(Option<(&'static WorkerThread, Context)>);
    impl Drop for Uncarry {
        fn drop(&mut self) {
            if let Some((worker, was)) = self.0.take() {
                worker.set_carried(was);
            }
        }
    }
    let worker = WorkerThread::current();
    if let Some(worker) = worker {
        worker.publish_all();
    }
    let _uncarry = Uncarry(worker.map(|w| (w, w.set_carried(context.clone()))));
    let _restore = Restore(CARRIED.with(|c| c.replace(context)));
    f()
}

/// The data pointer of the job `job` stands for: the wrapped job's for a marked one.
pub(crate) fn inner_data(job: &JobRef) -> *const () {
    if !job.is_marked() {
        return job.data();
    }
    // SAFETY: as in `region_of`: a live, unexecuted `RegionJob`.
    unsafe { (*job.marked_data().cast::<RegionJob>()).job.data() }
}

/// A job taken back unrun: its wrapper (if marked) is freed and the wrapped job
/// returned, still unrun.
pub(crate) fn unwrap(job: JobRef) -> JobRef {
    if !job.is_marked() {
        return job;
    }
    // SAFETY: only `mark` makes marked references, from `Box::into_raw` of a
    // `RegionJob`; taken back unexecuted, it is freed here once instead.
    let wrapper = unsafe { Box::from_raw(job.marked_data().cast::<RegionJob>().cast_mut()) };
    wrapper.job
}

/// `job`, marked as started inside `region` (unchanged for region 0).
pub(crate) fn mark(job: JobRef, region: usize) -> JobRef {
    // The regions this thread works for go with the job: a job of another pool's
    // call, taken by another worker, still works for them.
    mark_with(job, region, CARRIED.with(|c| c.borrow().clone()))
}

/// `job`, marked as started inside `region` and for the work of `carried`.
pub(crate) fn mark_with(job: JobRef, region: usize, carried: Context) -> JobRef {
    if region == 0 && carried.is_empty() {
        return job;
    }
    let boxed = Box::into_raw(Box::new(RegionJob {
        job,
        region,
        carried,
    }));
    // SAFETY: the box lives until the reference is executed, which frees it; the
    // wrapped job's own contract (sendable, not unwinding) carries over.
    unsafe { JobRef::new_marked(boxed) }
}

/// The oldest job of `queue` (a pool's injector, a worker's broadcasts) if it
/// belongs to `region`; one of another region goes back to the queue's end (such
/// queues keep no order among their jobs that a caller could see), and waits for
/// a worker outside the region (or, for a broadcast, for its worker to leave it).
pub(crate) fn take_if_in(queue: &Injector<JobRef>, region: usize) -> Option<JobRef> {
    loop {
        match queue.steal() {
            Steal::Success(job) if region_of(&job) == region => return Some(job),
            Steal::Success(job) => {
                queue.push(job);
                return None;
            }
            Steal::Empty => return None,
            Steal::Retry => {}
        }
    }
}

/// The region `job` was started in, 0 for a job started outside any.
pub(crate) fn region_of(job: &JobRef) -> usize {
    if !job.is_marked() {
        return 0;
    }
    // SAFETY: only `mark` makes marked references, from a boxed `RegionJob` that lives
    // until the reference is executed; `job` has not been (it is borrowed here).
    unsafe { (*job.marked_data().cast::<RegionJob>()).region }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_marked_job_keeps_its_region_and_an_unmarked_one_has_none() {
        static RAN: AtomicUsize = AtomicUsize::new(0);
        let job = super::super::job::HeapJob::new(|| {
            RAN.fetch_add(1, Ordering::Relaxed);
        });
        // SAFETY: the closure borrows nothing.
        let job = unsafe { job.into_job_ref() };
        assert_eq!(region_of(&job), 0);
        let job = mark(job, 7);
        assert!(job.is_marked());
        assert_eq!(region_of(&job), 7);
        // SAFETY: executed once.
        unsafe { job.execute() };
        assert_eq!(RAN.load(Ordering::Relaxed), 1);
    }
}
