"""The size of a kernel's OpenMP thread team, chosen at each call from how
busy the machine's cores are (C, part of every generated library's prelude).

Why: a team of two on a 2-core machine that another process also uses waits,
at the region's closing barrier, for a worker the scheduler has not run yet
(a time slice, milliseconds).  Measured with the suite's GELU (2**20 float32,
0.75 ms alone on a quiet machine): two processes at once took 2.9x their
alone time each on two threads, 1.14x and 1.03x on one thread (which is fair
sharing: one core each); with other engineers' tests on the cores one
process alone took 2.3-3.7 ms on two threads and 1.4 ms on one.

`tf_team(most)` reads the number of runnable tasks of the whole machine (the
fourth field of /proc/loadavg, "R/T") at most every TF_TEAM_PERIOD_NS, takes
the tasks that are not this call's own (R less the calling thread and the
workers of the team it last chose: right after a kernel they are still
spinning, GOMP_SPINCOUNT), and gives each core that is left one thread: team
= cores - others, at least 1, at most `most` (the num_threads flag, or 0 for
none) and omp_get_max_threads() (OMP_NUM_THREADS).  A quiet machine keeps
the full team; two processes of the same work converge on one thread each.

Cost: one read of /proc/loadavg (8-17 us) per period and library, a coarse
clock read (tens of ns) per call otherwise.  No /proc (or no OpenMP): the
full team, as before.  Results do not depend on the team size (kernels
compute each element in one thread and only OR their error flags, see
codegen_c.CHUNK).  The statics are per library and only hints: racing
updates from threads calling kernels at once are harmless.
"""

SOURCE = r"""
#ifdef _OPENMP
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
int omp_get_max_threads(void);
int omp_get_num_procs(void);
#define TF_TEAM_PERIOD_NS 5000000LL
static int64_t tf_team_at = -1;  /* when the machine was last looked at, ns */
static int tf_team_size = 0;  /* the team chosen then */

static int tf_runnable(void) {  /* R of "a b c R/T pid" in /proc/loadavg; -1 when unknown */
  char buf[128];
  int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  const char *p = buf;
  for (int spaces = 0; *p && spaces < 3; p++) spaces += *p == ' ';
  int r = 0;
  while (*p >= '0' && *p <= '9') r = r * 10 + (*p++ - '0');
  return *p == '/' ? r : -1;
}

/* The team for `runnable` tasks on the machine, `last` the team chosen before
   (0: none yet), `procs` cores, at most `cap` threads. */
static int tf_team_choose(int runnable, int last, int procs, int cap) {
  if (runnable < 0) return cap;
  int others = runnable - (last > 0 ? last : 1);  /* less this thread and its spinning workers */
  int team = procs - (others > 0 ? others : 0);
  return team < 1 ? 1 : (team > cap ? cap : team);
}

static __attribute__((unused)) int tf_team(int most) {
  int cap = omp_get_max_threads();
  if (most > 0 && most < cap) cap = most;
  if (cap <= 1) return 1;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  const int64_t now = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
  int team = __atomic_load_n(&tf_team_size, __ATOMIC_RELAXED);
  if (team > 0 && now - __atomic_load_n(&tf_team_at, __ATOMIC_RELAXED) < TF_TEAM_PERIOD_NS)
    return team < cap ? team : cap;
  team = tf_team_choose(tf_runnable(), team, omp_get_num_procs(), cap);
  __atomic_store_n(&tf_team_size, team, __ATOMIC_RELAXED);
  __atomic_store_n(&tf_team_at, now, __ATOMIC_RELAXED);
  return team;
}
#endif
"""


def clause(most):
    """The num_threads clause of a parallel loop: the team chosen at the call,
    at most `most` threads (None: no limit but OpenMP's own)."""
    return f" num_threads(tf_team({int(most) if most else 0}))"
