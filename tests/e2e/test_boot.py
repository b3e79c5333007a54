"""The page loads, the engine boots in its worker, and nothing leaves the origin."""

from urllib.parse import urlsplit


def test_engine_boots(browser, site):
    context = browser.new_context()
    page = context.new_page()
    urls = []
    page.on("request", lambda r: urls.append(r.url))
    context.on("request", lambda r: urls.append(r.url))
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=60_000)
    print(page.locator("#boot-status").text_content())
    origin = urlsplit(site)[:2]
    assert all(urlsplit(u)[:2] == origin for u in urls if not u.startswith(("data:", "blob:")))
    assert any(u.endswith(".whl") for u in urls), urls
    context.close()
