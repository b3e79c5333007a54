"""The page loads under a sub-path, the start screen works while the engine boots in
its worker, and the boot completes."""

from conftest import BOOT_TIMEOUT_MS
from playwright.sync_api import expect


def test_start_screen_is_usable_while_the_engine_boots(browser, site, requests_seen):
    context = browser.new_context()
    requests_seen.watch(context)
    page = context.new_page()
    page.goto(site, wait_until="domcontentloaded")
    # Before the engine is ready: the settings respond and the progress is shown.
    expect(page.get_by_role("heading", name="New Game")).to_be_visible()
    expect(page.get_by_role("progressbar", name="Engine loading")).to_be_attached()
    assert page.locator("body").get_attribute("data-engine") in ("booting", None)
    page.get_by_label("Computer opponents").select_option("3")
    expect(page.get_by_label("Computer 3 level")).to_be_visible()
    page.get_by_label("Computer 3 level").select_option("hard")
    # The boot completes and says so.
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(page.get_by_role("status").first).to_contain_text("Engine ready")
    page.get_by_role("button", name="Start Game").click()
    page.wait_for_selector("body[data-turn=mine]", timeout=60_000)
    expect(page.get_by_role("list", name="Players").locator("li")).to_have_count(4)
    context.close()
