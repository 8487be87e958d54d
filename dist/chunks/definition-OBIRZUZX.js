import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-4XFOY4BR.js";import"./chunk-MB3NLYFD.js";import"./chunk-FCEQVHPD.js";import"./chunk-LRY6EWVY.js";import"./chunk-ZWMNMNYK.js";import"./chunk-EYUDJN4N.js";import"./chunk-DHOSGSHR.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
