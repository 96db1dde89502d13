"""The shown sets' bookkeeping (see show.py): what each viewer was shown, and when a shown card
stops being known. Imports nothing of the engine, so that the game's flow (battle, rounds,
aftermath) can call it without an import cycle."""


def shown_to(state, viewer):
    """{owner: sorted kinds} that `viewer` was shown (nothing for a spectator)."""
    return {owner: kinds for owner, seen, kinds in state.shown if seen == viewer}


def shown_by(state, owner):
    """{viewer: sorted kinds} that `owner` has shown, still in his hand."""
    return {viewer: kinds for shower, viewer, kinds in state.shown if shower == owner}


def forget_played(ns, seat, kind, face_down):
    """[ruling] A card played face up leaves the shown sets of its owner (one of its kind); a
    face-down play empties them all (it could be any card of the hand)."""
    kept = []
    for owner, viewer, kinds in ns.shown:
        if owner == seat:
            if face_down:
                continue
            if kind in kinds:
                index = kinds.index(kind)
                kinds = kinds[:index] + kinds[index + 1 :]
            if not kinds:
                continue
        kept.append((owner, viewer, kinds))
    ns.shown = tuple(kept)


def forget_hand(ns, seat):
    """The seat's hand was discarded: nothing it showed is in it any more."""
    ns.shown = tuple(entry for entry in ns.shown if entry[0] != seat)


def forget_all(ns):
    """[ruling] The round ends (a new deal) or the final battle deals anew: every show is over."""
    ns.shown = ()
