// The API page's only script: renders the OpenAPI/Swagger document named by #api-document's data-document-url
// with Swagger UI (swagger-ui-dist from npm, bundled by scripts/build-portal-site.mjs: nothing from another
// origin). The validator badge is off (it would call validator.swagger.io) and "Try it out" is off: the page's
// Content-Security-Policy allows requests to the portal's own origin only; developers call the API with their key.
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';

const mount = document.getElementById('api-document');
const url = mount?.dataset.documentUrl;
if (mount && url) {
  SwaggerUIBundle({
    domNode: mount,
    url,
    validatorUrl: null,
    supportedSubmitMethods: [],
    deepLinking: false,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
}
