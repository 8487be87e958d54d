import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-S5GEWW2J.js";import"./chunk-N6KMRIUJ.js";import"./chunk-EIK33WKE.js";import"./chunk-MINIZ6TR.js";import"./chunk-2GWDZOTY.js";import"./chunk-ONCPTS3Z.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XTLSWGKH.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
