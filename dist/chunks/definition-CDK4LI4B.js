import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-WEYDCNZO.js";import"./chunk-OULGIBU3.js";import"./chunk-2JOT5Q2Y.js";import"./chunk-Z3ZRBVGN.js";import"./chunk-4PYPBIHA.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as action};
