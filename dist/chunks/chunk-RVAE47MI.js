import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as r}from"./chunk-XBPPTJU7.js";var p=/\r\n|[\r\n\v\f\u0085\u2028\u2029]/,o=new RegExp("^([\\s\\p{Cf}]*:)(\\p{Cf}*:)","u"),e=new RegExp("#(?=\\p{Cf}*#\\p{Cf}*(?:v\\p{Cf}*s\\p{Cf}*o\\p{Cf}*)?\\[)","giu");function s(n){return n.split(p).map(t=>t.replace(o,"$1 $2").replace(e,"# ")).join(`
`)}r(s,"commandFreeText");function c(n){return n.replace(e,"\\u0023")}r(c,"commandFreeJson");export{s as a,c as b};
