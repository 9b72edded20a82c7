// What the games' drawings share.

// places as the games give them (one entry per place, a list of seats where several share it) in words
export function placesText(places, players) {
  const name = (seat) => ((players || []).find((p) => p.seat === seat) || {}).name || `#${seat}`;
  return (places || []).map((entry, k) => `${k + 1}. ${[].concat(entry).map(name).join(", ")}`).join("; ");
}
