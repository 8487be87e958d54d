import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as e}from"./chunk-XBPPTJU7.js";var t="sauce-actions";function n(s,r){return`<!-- sauce-actions:issue ${s.replace(/[^\w-]/g,"")} ${r.replace(/[^\w-]/g,"")} -->`}e(n,"issueMarker");export{t as a,n as b};
