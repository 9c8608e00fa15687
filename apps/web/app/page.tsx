export default function Home() {
  return (
    <main>
      <h1>Quantum Custody</h1>
      <p>Non-custodial digital-asset custody for the QUANTUM networks. Keys stay in your signer.</p>
      <ul>
        <li><a href="/docs">API reference</a> (<a href="/v1/openapi.json">openapi.json</a>)</li>
        <li><a href="/readyz">Readiness</a></li>
      </ul>
    </main>
  );
}
