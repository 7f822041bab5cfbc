// The part of swagger-ui-dist's prebuilt bundle the API page uses (the package ships no types).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  interface SwaggerUiOptions {
    domNode: Element;
    url?: string;
    spec?: unknown;
    validatorUrl: string | null;
    supportedSubmitMethods?: string[];
    deepLinking?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
  }
  const SwaggerUIBundle: (options: SwaggerUiOptions) => unknown;
  export default SwaggerUIBundle;
}
declare module '*.css';
