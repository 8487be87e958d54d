import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as e}from"./chunk-XBPPTJU7.js";var i=class extends Error{static{e(this,"InputError")}name="InputError";input;problem;allowed;constructor(n,s,r){super(`Input "${n}" ${s}${r?`. Allowed: ${r}`:""}.`),this.input=n,this.problem=s,this.allowed=r}};function o(t){let n=t.replace(/\s+/g," ");return JSON.stringify(n.length>80?`${n.slice(0,77)}...`:n)}e(o,"quoteValue");export{i as a,o as b};
