// Pure helpers over `view.legal_actions`: the client never invents an action, it only groups
// the legal ones so that the page can offer them (cards by card code, with a sub-choice when one
// card can be played in several ways: Scarecrow's take, Bishop's Pope).

export function groupLegalActions(legalActions) {
  const groups = {
    regions: new Map(),
    cards: new Map(),
    passes: [],
    discards: [],
    keeps: [],
    draws: [],
  };
  for (const action of legalActions ?? []) {
    switch (action.type) {
      case "choose_region":
        groups.regions.set(action.region, action);
        break;
      case "play": {
        const ways = groups.cards.get(action.card) ?? [];
        ways.push(action);
        groups.cards.set(action.card, ways);
        break;
      }
      case "pass":
        groups.passes.push(action);
        break;
      case "discard_hand":
        groups.discards.push(action);
        break;
      case "keep":
        groups.keeps.push(action);
        break;
      case "draw":
        groups.draws.push(action);
        break;
      default:
        break;
    }
  }
  groups.draws.sort((a, b) => a.count - b.count);
  return groups;
}

export function hasAnyAction(groups) {
  return (
    groups.regions.size > 0 ||
    groups.cards.size > 0 ||
    groups.passes.length > 0 ||
    groups.discards.length > 0 ||
    groups.keeps.length > 0 ||
    groups.draws.length > 0
  );
}

// Bishop: the legal places for the Pope, as a Map region -> action, plus the "off the board" one.
export function popeChoices(ways) {
  const onRegion = new Map();
  let offBoard = null;
  for (const action of ways) {
    if (action.pope === null) offBoard = action;
    else if (typeof action.pope === "string") onRegion.set(action.pope, action);
  }
  return { onRegion, offBoard };
}

// Scarecrow: what may be taken back (Mercenary codes, each once) and the "take nothing" action.
export function scarecrowChoices(ways) {
  const takes = [];
  let nothing = null;
  for (const action of ways) {
    if (action.take === null || action.take === undefined) nothing = action;
    else takes.push(action);
  }
  takes.sort((a, b) => mercenaryValue(a.take) - mercenaryValue(b.take));
  return { takes, nothing };
}

export function mercenaryValue(code) {
  const match = /^m(\d+)$/.exec(code ?? "");
  return match ? Number(match[1]) : 0;
}

function sortedKey(cards) {
  return [...cards].sort().join(",");
}

// Keep: the action whose cards are the same multiset as the selected ones, or null.
export function matchingKeep(keeps, selectedCards) {
  const wanted = sortedKey(selectedCards);
  return keeps.find((action) => sortedKey(action.cards) === wanted) ?? null;
}

// The largest number of cards any legal keep allows (2 by the rules; fewer with a small hand).
export function keepLimit(keeps) {
  return keeps.reduce((most, action) => Math.max(most, action.cards.length), 0);
}

// The card a play action puts down, as the hand shows it (used to enable hand cards).
export function playableCards(groups) {
  return new Set(groups.cards.keys());
}
