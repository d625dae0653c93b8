// The page a person opens: it embeds the Stately inspector and hands it every message from this
// server's websocket, as @statelyai/inspect's own server page does. The socket address comes from
// the page's own, so any port works. The inspector is stately.ai's, over the internet: the page
// says so, links the job's local view when there is one, and goes there by itself when the
// inspector has not answered within a few seconds (offline, or behind a proxy that blocks it).

export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';

export function bridgePage(
  options: { inspectorUrl?: string; localView?: string | null; fallbackMs?: number } = {},
): string {
  const inspectorUrl = options.inspectorUrl ?? STATELY_INSPECTOR_URL;
  const local = options.localView ?? null;
  const note = local
    ? `The inspector is loaded from stately.ai. Offline? <a href="${local}">Open this job's local view</a>.`
    : 'The inspector is loaded from stately.ai, so this page needs the internet.';
  return `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>booty: Stately inspector</title>
  <style>* { margin: 0; padding: 0; } html, body { height: 100%; } body { display: flex; flex-direction: column; }
  .note { font: 13px system-ui, sans-serif; padding: 6px 12px; background: #fff8c5; }
  iframe { flex: 1; width: 100%; border: none; }</style>
</head>
<body>
  <div class="note">${note}</div>
  <iframe id="inspector" src="${inspectorUrl}"></iframe>
  <script>
    const iframe = document.getElementById('inspector');
    const pending = [];
    let connected = false;
    const local = ${JSON.stringify(local)};
    const fallback = local ? setTimeout(() => location.replace(local), ${options.fallbackMs ?? 8000}) : 0;
    window.addEventListener('message', (e) => {
      if (e.data && e.data.type === '@statelyai.connected') {
        connected = true;
        clearTimeout(fallback);
        for (const message of pending.splice(0)) iframe.contentWindow.postMessage(message, '*');
      }
    });
    const ws = new WebSocket('ws://' + location.host + '/');
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (connected) iframe.contentWindow.postMessage(message, '*');
      else pending.push(message);
    };
  </script>
</body>
</html>`;
}
