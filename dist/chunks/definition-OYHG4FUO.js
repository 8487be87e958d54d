import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-55UUVVSI.js";import"./chunk-K3D5RFA3.js";import"./chunk-WZ2GNDF6.js";import"./chunk-EAFY7CDW.js";import"./chunk-JTPSANCI.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XTLSWGKH.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
