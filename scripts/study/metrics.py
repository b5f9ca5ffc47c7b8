"""The study's measures over scored runs: X@k, Pass@k, mean +- std over repeats, bootstrap CIs."""
import math
import random


def hit_at_k(ranked, gold, k):
    """1 when every gold location is within the first k answers, else 0; None without gold."""
    if not gold:
        return None
    top = set(ranked[:k])
    return 1.0 if all(g in top for g in gold) else 0.0


def pass_at_k(n, c, k):
    """The unbiased estimate of P(at least one of k runs succeeds) from n runs with c successes."""
    if k > n:
        k = n
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def std(values):
    """Population standard deviation (over repeats)."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def bootstrap_ci(per_task, resamples=2000, level=0.95, seed=0):
    """Percentile CI of the mean over tasks, resampling tasks with replacement (seeded)."""
    values = [v for v in per_task if v is not None]
    if not values:
        return None
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(values) for _ in values) / len(values)
                   for _ in range(resamples))
    low = means[int((1 - level) / 2 * resamples)]
    high = means[min(resamples - 1, int((1 + level) / 2 * resamples))]
    return [low, high]
