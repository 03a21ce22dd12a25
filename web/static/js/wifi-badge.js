// On every page: when a Wi-Fi the companion knows is back in reach while it
// is its own hotspot, the Wi-Fi tab says so (its page offers to switch).

const link = document.querySelector('.tabs a[href="/wifi"]');

async function look() {
  if (!link || document.visibilityState !== "visible") return;
  try {
    const response = await fetch("/api/network", { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const status = await response.json();
    link.classList.toggle("wifi-offer", Boolean(status.offer));
    if (status.offer) link.title = status.offer;
    else link.removeAttribute("title");
  } catch (err) {
    /* offline for a moment: the next look tells */
  }
}

look();
setInterval(look, 60_000);
document.addEventListener("visibilitychange", look);
