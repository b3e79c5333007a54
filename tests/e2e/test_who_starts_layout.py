"""The who-starts draw on a narrow phone stands over the table, clear of the message, the
log line, "Game log", the buttons and the rack (or, with several people at the device,
the hand-over in their place), and within the screen. Issue 42: on a 360 px phone it
stood a third of the way down the screen, over the log line and "Game log"."""

import pytest
from game_page import watch, watched
from playwright.sync_api import expect
from test_play import opening_deal

# Whenever the draw is on show: what of the page under the table it overlaps, if any.
COVERS_JS = """() => {
  const box = document.querySelector('#who-starts');
  if (box.hidden) return;
  const b = box.getBoundingClientRect();
  for (const sel of ['#message', '#log-box', '#log-toggle', '.controls', '#rack', '#hand-over']) {
    const r = document.querySelector(sel).getBoundingClientRect();
    const meets = b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom;
    window.__covers.push(meets ? sel : '');
  }
  const out = b.top < 0 || b.left < 0 || b.bottom > innerHeight || b.right > innerWidth;
  window.__covers.push(out ? 'off the screen' : '');
  // Who is drawing, as named there (kept apart from what it covers by "name:").
  for (const n of box.querySelectorAll('.who-name')) window.__covers.push(`name:${n.textContent}`);
}"""


@pytest.fixture(scope="module")
def phone_viewport():
    """A 360 px phone under its browser's bars."""
    return {"width": 360, "height": 640}


@pytest.mark.parametrize(
    ("people", "opponents"), [([], 1), ([], 3), (["Anna", "Bob", "Cleo", "Dan"], 0)]
)
def test_the_who_starts_draw_leaves_the_log_and_the_buttons_in_sight(phone, people, opponents):
    app, page = phone, phone.page
    seed, _ = opening_deal()
    app.to_start_screen()
    watch(page, "__covers", COVERS_JS)
    app.new_game(seed, ["easy"] * opponents, delay=900, wait=False, people=people or None)
    expect(page.locator("#who-starts")).to_be_visible()
    expect(page.locator("#who-starts")).to_be_hidden(timeout=15_000)
    seen = watched(page, "__covers")
    covers = [c for c in seen if not c.startswith("name:")]
    assert covers, "the draw was never seen"
    assert {c for c in covers if c} == set()
    # With several people, each drawing is named (the first draw is everyone's).
    names = {c.removeprefix("name:") for c in seen if c.startswith("name:")}
    assert names == (
        set(people) if people else {"You", *(f"Computer {i + 1}" for i in range(opponents))}
    )
    app.wait_for_turn()
