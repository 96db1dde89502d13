"""The board: 17 regions and their 34 borders, exactly as in rulings.md."""

REGIONS = (
    "Torino", "Milano", "Venezia", "Genova", "Mantova", "Ferrara", "Parma", "Modena", "Bologna",
    "Lucca", "Firenze", "Siena", "Urbino", "Ancona", "Spoleto", "Roma", "Napoli",
)  # fmt: skip
REGION_INDEX = {name: index for index, name in enumerate(REGIONS)}

_BORDERS = {
    "Ancona": ("Napoli", "Spoleto", "Urbino"),
    "Bologna": ("Ferrara", "Firenze", "Modena", "Urbino"),
    "Ferrara": ("Bologna", "Mantova", "Modena", "Venezia"),
    "Firenze": ("Bologna", "Lucca", "Modena", "Roma", "Siena", "Spoleto", "Urbino"),
    "Genova": ("Milano", "Parma", "Torino"),
    "Lucca": ("Firenze", "Modena", "Parma"),
    "Mantova": ("Ferrara", "Milano", "Modena", "Venezia"),
    "Milano": ("Genova", "Mantova", "Modena", "Parma", "Torino", "Venezia"),
    "Modena": ("Bologna", "Ferrara", "Firenze", "Lucca", "Mantova", "Milano", "Parma"),
    "Napoli": ("Ancona", "Roma", "Spoleto"),
    "Parma": ("Genova", "Lucca", "Milano", "Modena"),
    "Roma": ("Firenze", "Napoli", "Siena", "Spoleto"),
    "Siena": ("Firenze", "Roma"),
    "Spoleto": ("Ancona", "Firenze", "Napoli", "Roma", "Urbino"),
    "Torino": ("Genova", "Milano"),
    "Urbino": ("Ancona", "Bologna", "Firenze", "Spoleto"),
    "Venezia": ("Ferrara", "Mantova", "Milano"),
}

ADJACENCY = {name: frozenset(_BORDERS[name]) for name in REGIONS}

# Bit masks for speed: bit r stands for REGIONS[r].
NEIGHBOURS_MASK = tuple(
    sum(1 << REGION_INDEX[other] for other in ADJACENCY[name]) for name in REGIONS
)
ALL_REGIONS_MASK = (1 << len(REGIONS)) - 1


def owned_mask(owners, seat):
    """Bit mask of the regions whose control marker belongs to `seat`."""
    mask = 0
    for region, owner in enumerate(owners):
        if owner == seat:
            mask |= 1 << region
    return mask


def largest_group(mask):
    """[rules] "N adjacent regions": size of the largest connected group inside `mask`."""
    return bin(largest_group_mask(mask)).count("1")


def largest_group_mask(mask):
    """The largest connected group inside `mask`, as a mask (of equal ones, the lowest-numbered
    region's group): the chain a victory meter shows."""
    best = best_size = 0
    remaining = mask
    while remaining:
        start = remaining & -remaining
        group = frontier = start
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            grown = NEIGHBOURS_MASK[bit.bit_length() - 1] & mask & ~group
            group |= grown
            frontier |= grown
        remaining &= ~group
        size = bin(group).count("1")
        if size > best_size:
            best, best_size = group, size
    return best
