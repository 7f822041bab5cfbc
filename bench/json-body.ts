// The 1 KiB JSON request body the transform benchmarks send (bench/template-engine.ts, bench/proxy.ts), and the
// reshaping template they run over it: a customer and its items rebuilt into another shape, the kind of mapping a
// body transform exists for.
export function body1KiB(): Buffer {
  const items = [];
  for (let i = 0; items.length === 0 || JSON.stringify({ items }).length < 1000; i++)
    items.push({ id: i, name: `item-${i}`, price: i * 1.5, tags: ['a', 'b'] });
  return Buffer.from(JSON.stringify({ customer: 'c-42', items }));
}

export const RESHAPE_TEMPLATE =
  '{"customer":{{.customer | jsonMarshal}},"count":{{len .items}},"lines":[{{range $i, $e := .items}}{{if $i}},{{end}}{"sku":{{$e.id}},"label":{{$e.name | jsonMarshal}},"amount":{{$e.price}}}{{end}}]}';
