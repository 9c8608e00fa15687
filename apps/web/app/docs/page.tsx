import { ApiReference } from "./api-reference";

export const metadata = { title: "API reference · Quantum Custody" };

export default function DocsPage() {
  return (
    <main>
      <h1>API reference</h1>
      <p>
        Generated from the routers: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1). Errors use the flat
        body <code>{"{ error, code, message, requestId, details? }"}</code>.
      </p>
      <ApiReference />
    </main>
  );
}
