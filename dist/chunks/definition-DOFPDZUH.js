import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-JEZKYHFL.js";import"./chunk-MLK4GNAG.js";import"./chunk-FCYNZGJC.js";import"./chunk-F7KYT5BN.js";import"./chunk-LN2DV4YF.js";import"./chunk-UU5UUVGT.js";import"./chunk-KJBND4MI.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
