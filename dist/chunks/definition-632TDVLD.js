import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-QN7YPYLE.js";import"./chunk-VMEBSR5R.js";import"./chunk-UAOTSIGR.js";import"./chunk-K4KQH2DH.js";import"./chunk-CGUOUWND.js";import"./chunk-SB5FK4VI.js";import"./chunk-T7CKW7ZJ.js";import"./chunk-PS6IMN3F.js";import"./chunk-4PYPBIHA.js";import"./chunk-KKA7AQUK.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
