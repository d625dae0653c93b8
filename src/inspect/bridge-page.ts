// The page a person opens: it embeds the Stately inspector and hands it every message from this
// server's websocket, as @statelyai/inspect's own server page does. The socket address comes from
// the page's own, so any port works.

export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';

export function bridgePage(inspectorUrl = STATELY_INSPECTOR_URL): string {
  return `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>booty: Stately inspector</title>
  <style>* { margin: 0; padding: 0; } html, body { height: 100%; } iframe { width: 100%; height: 100%; border: none; }</style>
</head>
<body>
  <iframe id="inspector" src="${inspectorUrl}"></iframe>
  <script>
    const iframe = document.getElementById('inspector');
    const pending = [];
    let connected = false;
    window.addEventListener('message', (e) => {
      if (e.data && e.data.type === '@statelyai.connected') {
        connected = true;
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
