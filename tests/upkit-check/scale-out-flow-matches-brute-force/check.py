"""upkit-check's test that a scale-out fits one VM per host (a greedy,
then an exact bipartite flow) against trying every placement, on small
random partitions."""
import importlib.machinery
import importlib.util
import itertools
import random
import sys

loader = importlib.machinery.SourceFileLoader('upkit_check', sys.argv[1])
spec = importlib.util.spec_from_loader('upkit_check', loader)
check = importlib.util.module_from_spec(spec)
loader.exec_module(check)


def every_placement(want, room, runs):
    tenants = [t for t in want if want[t] > 0]

    def place(i, left):
        if i == len(tenants):
            return True
        t = tenants[i]
        hosts = [h for h in room if t not in runs[h] and left[h] > 0]
        for chosen in itertools.combinations(hosts, want[t]):
            for h in chosen:
                left[h] -= 1
            if place(i + 1, left):
                return True
            for h in chosen:
                left[h] += 1
        return False
    return place(0, dict(room))


random.seed(1)
fits = wrong = 0
for _ in range(3000):
    room = {f'h{i}': random.randint(0, 3) for i in range(random.randint(1, 5))}
    want = {f't{i}': random.randint(0, 3) for i in range(random.randint(1, 4))}
    runs = {h: {t for t in want if random.random() < 0.3} for h in room}
    truth = every_placement(want, room, runs)
    fits += truth
    wrong += check.held_one_per_host(want, room, runs) != truth
    wrong += check.max_flow_fits({t: e for t, e in want.items() if e},
                                 room, runs) != truth
print(f'3000 partitions, {fits} where the scale-out fits: '
      f'{wrong} wrong answers')
