// A board of square cells on the page (the battle game's field): where each cell is
// drawn, which cell lies under a point, the cells a drag crosses, the lakes, and the
// drawings of the pieces such a game names (a block, a flag, a bomb). The page's own
// drawing of hex nests stays in app.js; app.js asks this module only when the server
// says the cells are square (the hello's `geometry`, from the board's cell_shape and
// centre: docs/simulator.md).

const SVG_NS = "http://www.w3.org/2000/svg";

function element(name, attributes = {}) {
  const made = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  return made;
}

// The layout of a square board: `geometry` is the server's ({shape, cells: name ->
// [x, y] in pitches, x east, y north}), `board` the game's (its lakes), `radius` the
// size the page draws a hex cell at (a square is as wide as a hex cell).
export function squareLayout(board, geometry, radius) {
  if (geometry?.shape !== "square") return null;
  const side = 1.7 * radius;
  const byPlace = new Map();
  const places = new Map();
  for (const [name, [x, y]] of Object.entries(geometry.cells ?? {})) {
    byPlace.set(`${x},${y}`, name);
    places.set(name, [x, y]);
  }
  const toScreen = (x, y) => [x * side, -y * side];
  return {
    side,
    // Where a cell's centre is drawn.
    place(name) {
      const [x, y] = places.get(name);
      return toScreen(x, y);
    },
    // The cell's outline, in the page's cell class (styled as a hex cell is).
    outline(x, y) {
      const half = side * 0.485;
      return element("rect", { class: "hex square", x: x - half, y: y - half, width: 2 * half, height: 2 * half });
    },
    // The set-up rows, not homebases: the page names them so.
    homeClass: (home) => `rows-${home}`,
    homeWords: (home) => `${home}'s set-up rows`,
    // The lakes, drawn under the cells: no switch, no piece, never a target.
    lakes() {
      return (board?.lakes ?? []).map((lake) => {
        const [x, y] = toScreen(lake.x, lake.y);
        const half = side / 2;
        const drawn = element("rect", {
          class: "lake",
          "data-lake": lake.name,
          x: x - half,
          y: y - half,
          width: side,
          height: side,
        });
        const title = element("title");
        title.textContent = `${lake.name}: a lake`;
        drawn.append(title);
        return drawn;
      });
    },
    // The cell under a point of the SVG, or null (a lake, off the board).
    cellAt(point) {
      return byPlace.get(`${Math.round(point.x / side)},${Math.round(-point.y / side)}`) ?? null;
    },
    // The cells from `from` (excluded) to `to` (included), each next to the one before,
    // as a piece slid along goes: along the row or the column, turning once if it must.
    between(from, to) {
      const [x0, y0] = places.get(from);
      const [x1, y1] = places.get(to);
      const line = [];
      let [x, y] = [x0, y0];
      while (x !== x1 || y !== y1) {
        // The longer way first, so that a drag off its line by a little stays on it.
        if (Math.abs(x1 - x) >= Math.abs(y1 - y)) x += Math.sign(x1 - x);
        else y += Math.sign(y1 - y);
        const name = byPlace.get(`${x},${y}`);
        if (name) line.push(name);
      }
      return line;
    },
  };
}

// The body of a piece the square games draw, or null for a shape app.js draws.
export function squareGlyph(shape, radius) {
  if (shape === "block") {
    const half = 0.56 * radius;
    return element("rect", { x: -half, y: -half, width: 2 * half, height: 2 * half, rx: 0.14 * radius });
  }
  if (shape === "flag") {
    const s = (value) => (value * radius).toFixed(1);
    return element("path", {
      d: `M${s(-0.5)},${s(0.6)} L${s(-0.5)},${s(-0.6)} L${s(0.6)},${s(-0.3)} L${s(-0.3)},${s(0.05)} ` +
        `L${s(-0.3)},${s(0.6)} Z`,
    });
  }
  if (shape === "bomb") {
    return element("circle", { r: 0.5 * radius });
  }
  return null;
}
