export function App() {
  return <h1>Acme storefront</h1>;
}
