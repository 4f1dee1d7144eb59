"""How far reactions steer generation, printed (not a test; the tests are
tests/generation/test_steering_*.py):

for a site of 20 templates (the demo pack's count) where one template was liked
3 times of 4 and the others have no votes, and for 5 templates where one more was
liked once of 4, the bandit's chance of picking each, and each one's share of
the memes queued in the second of two simulated days (an unvoted template: the
mean of them) (tests/steering.py: the
stock top-up every ten minutes, readers running low at a given rate, workers
that finish every job at once), averaged over --seeds runs of the bandit's draws.

Runs on a throwaway SQLite database:  python bench/steering.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import throwaway_site  # noqa: E402

WORK = throwaway_site.start(LOG_LEVEL="ERROR")

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from generation import bandit, steering  # noqa: E402
from tests.feed_data import readers  # noqa: E402
from tests.steering import simulate, templates_with_votes  # noqa: E402

LIKED, DISLIKED = "liked", "disliked"
SITES = {
    "20 templates": {LIKED: (3, 1), **{f"unvoted{n}": (0, 0) for n in range(19)}},
    "5 templates": {LIKED: (3, 1), DISLIKED: (1, 3), **{f"unvoted{n}": (0, 0) for n in range(3)}},
}
RUNS_LOW_PER_HOUR = (0, 2, 6)  # readers who reach the end of their feed, per hour


def one_run(votes: dict[str, tuple[int, int]], runs_low_per_hour: int, seed: int) -> dict[str, float]:
    """The bandit's chance and the share of the memes queued on day two, in percent:
    for the liked template, the disliked one, and an unvoted one (their mean)."""
    with transaction.atomic():
        cast = readers(30)
        templates = templates_with_votes(votes, cast[:3])
        chances = bandit.shares(steering.template_votes())
        made = simulate(cast, hours=48, measure_hours=24, runs_low_per_hour=runs_low_per_hour, seed=seed)
        transaction.set_rollback(True)
    unvoted = [slug for slug in votes if slug.startswith("unvoted")]
    groups = {"liked": [LIKED], "disliked": [DISLIKED], "unvoted": unvoted}
    figures = {}
    for group, slugs in groups.items():
        if all(slug in templates for slug in slugs):
            figures[f"{group} chance"] = 100 * statistics.mean(chances[templates[s].pk] for s in slugs)
            figures[f"{group} share"] = 100 * statistics.mean(made.of(s) for s in slugs)
            figures[f"{group} by top-up"] = 100 * statistics.mean(made.of_reason(s, "stock") for s in slugs)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    print(f"prior {bandit.PRIOR}; figures in percent, mean (min-max) over seeds")
    for site, votes in SITES.items():
        for rate in RUNS_LOW_PER_HOUR:
            seeds = range(args.seeds if rate else 1)  # without readers running low nothing is drawn
            runs = [one_run(votes, rate, seed) for seed in seeds]
            print(f"\n{site}, {rate} readers running low an hour:")
            for name in runs[0]:
                values = [run[name] for run in runs]
                print(f"  {name:22} {statistics.mean(values):5.1f} ({min(values):.1f}-{max(values):.1f})")


if __name__ == "__main__":
    main()
